"""A field's virtual games: every entrant plays every other, decided by their places (the higher
place wins, an equal place draws), as duplicate bridge compares everyone who played one deal.

A day's field counts as one rating period, and each entrant's N - 1 virtual games are weighted
1 / (N - 1) in all: one game's worth of evidence per day (docs/ratings.md, "Weighting").
Glicko-2 needs only two sums per entrant over its opponents j (glicko2.PeriodSums):

    information_i = w * sum_j g_j^2 * E_ij * (1 - E_ij)
    improvement_i = w * sum_j g_j * (s_ij - E_ij)

The scores' part, sum_j g_j * s_ij, is a running sum over places and exact for any field. The
expectations' parts depend on the entrants' ratings alone: up to EXACT_LIMIT entrants they are
summed pair by pair; above it, the opponents are binned by rating and deviation, and both sums
are taken on a grid of ratings and interpolated at each entrant's (docs/ratings.md, "Large
days", gives the measured error).

>>> field = [(START, 1), (START, 2), (START, 3)]
>>> [round(player.rating) for player in field_rated(field)]
[1742, 1500, 1258]
"""

import math
from collections import defaultdict
from collections.abc import Sequence
from itertools import groupby
from typing import Any

from game.domain.glicko2 import (
    START,
    Glicko,
    Outcome,
    PeriodSums,
    expected_mu,
    g_of,
    rated,
    rated_by_sums,
    to_mu,
    to_phi,
)

EXACT_LIMIT = 200  # entrants summed pair by pair; above, in bins
RATING_BIN = 10.0  # rating points per bin of opponents
DEVIATION_BIN = 10.0  # RD points per bin of opponents
GRID_STEP = 2.0  # rating points between the grid's ratings the binned sums are taken at

Entrant = tuple[Glicko, int]  # a rating before the period, and the place in the field


def field_rated(field: Sequence[Entrant], *, exact_limit: int = EXACT_LIMIT) -> list[Glicko]:
    """Every entrant's rating after the field's virtual games, in the field's order. A field of
    fewer than two has no games: its entrants come out as they came in."""
    if len(field) < 2:
        return [player for player, _place in field]
    weight = 1 / (len(field) - 1)
    scores = _score_sums(field)
    expectations = _expected_sums(field) if len(field) <= exact_limit else _binned_sums(field)
    return [
        rated_by_sums(player, PeriodSums(weight * info, weight * (score - expected)))
        for (player, _place), score, (expected, info) in zip(
            field, scores, expectations, strict=True
        )
    ]


def pairwise_rated(field: Sequence[Entrant]) -> list[Glicko]:
    """Every entrant's rating after a whole game against every other, decided by place: a
    race's period, where each pair of racers is a game of its own.

    >>> [round(player.rating) for player in pairwise_rated([(START, 1), (START, 2)])]
    [1742, 1258]
    """
    return [
        rated(player, [_game(place, other, other_place) for other, other_place in others])
        for index, (player, place) in enumerate(field)
        for others in [[*field[:index], *field[index + 1 :]]]
    ]


def _game(place: int, opponent: Glicko, opponent_place: int) -> Outcome:
    score = 1.0 if place < opponent_place else 0.5 if place == opponent_place else 0.0
    return Outcome(opponent.rating, opponent.deviation, score)


def _score_sums(field: Sequence[Entrant]) -> list[float]:
    """sum_j g_j * s_ij for each entrant: the g of everyone placed below, and half the g of
    everyone else on the same place."""
    gs = [g_of(to_phi(player.deviation)) for player, _place in field]
    by_place: dict[int, float] = defaultdict(float)
    for (_player, place), g in zip(field, gs, strict=True):
        by_place[place] += g
    below, running = {}, 0.0
    for place in sorted(by_place, reverse=True):
        below[place] = running
        running += by_place[place]
    return [
        below[place] + (by_place[place] - g) / 2
        for (_player, place), g in zip(field, gs, strict=True)
    ]


def _expected_sums(field: Sequence[Entrant]) -> list[tuple[float, float]]:
    """(sum_j g_j * E_ij, sum_j g_j^2 * E_ij * (1 - E_ij)) for each entrant, pair by pair."""
    opponents = [(to_mu(player.rating), g_of(to_phi(player.deviation))) for player, _ in field]
    sums = []
    for i, (mu, _g) in enumerate(opponents):
        expected = information = 0.0
        for j, (opponent_mu, g) in enumerate(opponents):
            if i != j:
                e = expected_mu(mu, opponent_mu, g)
                expected += g * e
                information += g * g * e * (1 - e)
        sums.append((expected, information))
    return sums


def _binned_sums(field: Sequence[Entrant]) -> list[tuple[float, float]]:
    """_expected_sums with the opponents in bins (each bin its members' count, mean mu and mean
    g), taken on a grid of ratings and interpolated linearly; the entrant's own term (E = 1/2
    against itself) is taken out."""
    bins = _bins(field)
    mus = [to_mu(player.rating) for player, _place in field]
    low, step = min(mus), to_mu(START.rating + GRID_STEP)
    points = math.ceil((max(mus) - low) / step) + 2
    grid = [_sums_at(low + k * step, bins) for k in range(points)]
    sums = []
    for (player, _place), mu in zip(field, mus, strict=True):
        g = g_of(to_phi(player.deviation))
        expected, information = _interpolated(grid, (mu - low) / step)
        sums.append((expected - g / 2, information - g * g / 4))
    return sums


def _bins(field: Sequence[Entrant]) -> list[tuple[int, float, float]]:
    members: dict[tuple[int, int], list[tuple[float, float]]] = defaultdict(list)
    for player, _place in field:
        key = (round(player.rating / RATING_BIN), round(player.deviation / DEVIATION_BIN))
        members[key].append((to_mu(player.rating), g_of(to_phi(player.deviation))))
    return [
        (len(found), sum(mu for mu, _ in found) / len(found), sum(g for _, g in found) / len(found))
        for found in members.values()
    ]


def _sums_at(mu: float, bins: list[tuple[int, float, float]]) -> tuple[float, float]:
    expected = information = 0.0
    for count, opponent_mu, g in bins:
        e = 1 / (1 + math.exp(-g * (mu - opponent_mu)))
        expected += count * g * e
        information += count * g * g * e * (1 - e)
    return expected, information


def _interpolated(grid: list[tuple[float, float]], at: float) -> tuple[float, float]:
    index = min(int(at), len(grid) - 2)
    share = at - index
    (e0, i0), (e1, i1) = grid[index], grid[index + 1]
    return e0 + (e1 - e0) * share, i0 + (i1 - i0) * share


def places(keys: Sequence[Any]) -> list[int]:
    """The place of each of these sort keys (smaller is better), as a board numbers them: one
    more than how many are strictly better, so equal keys share a place.

    >>> places([(-250, 30), (-100, 90), (-250, 30), (-250, 10)])
    [2, 4, 2, 1]
    """
    order = sorted(range(len(keys)), key=keys.__getitem__)
    found = [0] * len(keys)
    ahead = 0
    for _key, group in groupby(order, key=keys.__getitem__):
        members = list(group)
        for index in members:
            found[index] = ahead + 1
        ahead += len(members)
    return found
