"""A field's virtual games (game.domain.virtual_games): against brute force, and in bins."""

import random
import statistics

import pytest

from game.domain.glicko2 import PROVISIONAL_DEVIATION, START, Glicko, Outcome, is_provisional, rated
from game.domain.virtual_games import EXACT_LIMIT, field_rated, pairwise_rated, places


def random_field(size: int, seed: int) -> list[tuple[Glicko, int]]:
    """Newcomers and settled players, placed by a noisy skill so that upsets happen, with ties."""
    rng = random.Random(seed)
    players = [
        START
        if rng.random() < 0.2
        else Glicko(rng.gauss(1500, 300), rng.uniform(45, 350), rng.uniform(0.04, 0.1))
        for _ in range(size)
    ]
    skill = [round((player.rating + rng.gauss(0, 300)) / 20) for player in players]
    return list(zip(players, places([-s for s in skill]), strict=True))


def brute_force(field: list[tuple[Glicko, int]]) -> list[Glicko]:
    """Every pair played out as a weighted game of the paper's system."""
    weight = 1 / (len(field) - 1)
    return [
        rated(player, [_game(place, other, other_place, weight) for other, other_place in others])
        for index, (player, place) in enumerate(field)
        for others in [field[:index] + field[index + 1 :]]
    ]


def _game(place: int, other: Glicko, other_place: int, weight: float) -> Outcome:
    score = 1.0 if place < other_place else 0.5 if place == other_place else 0.0
    return Outcome(other.rating, other.deviation, score, weight)


@pytest.mark.parametrize("size,seed", [(2, 1), (3, 2), (17, 3), (EXACT_LIMIT, 4)])
def test_a_field_up_to_the_exact_limit_is_rated_as_brute_force_rates_it(size, seed):
    field = random_field(size, seed)
    for ours, theirs in zip(field_rated(field), brute_force(field), strict=True):
        assert ours.rating == pytest.approx(theirs.rating, abs=1e-9)
        assert ours.deviation == pytest.approx(theirs.deviation, abs=1e-9)
        assert ours.volatility == pytest.approx(theirs.volatility, abs=1e-12)


def test_the_higher_place_wins_and_an_equal_place_draws():
    first, second, tied = field_rated([(START, 1), (START, 2), (START, 2)])
    assert first.rating > START.rating > second.rating
    assert second == tied


def test_a_binned_field_stays_within_a_hundredth_of_a_point_of_the_exact_one():
    field = random_field(2000, 5)
    exact = field_rated(field, exact_limit=len(field))
    binned = field_rated(field, exact_limit=0)
    errors = [abs(a.rating - b.rating) for a, b in zip(exact, binned, strict=True)]
    assert max(errors) < 0.01
    assert statistics.mean(errors) < 0.001
    assert max(abs(a.deviation - b.deviation) for a, b in zip(exact, binned, strict=True)) < 0.01


def test_a_day_of_a_hundred_counts_as_one_games_evidence_so_a_newcomer_stays_provisional():
    field = [(START, 1)] + [(Glicko(1500, 60, 0.06), place) for place in range(2, 101)]
    newcomer = field_rated(field)[0]
    assert newcomer.rating > START.rating
    assert is_provisional(newcomer.deviation)
    assert newcomer.deviation > 2 * PROVISIONAL_DEVIATION


def test_a_lone_entrant_has_no_games():
    assert field_rated([(START, 1)]) == [START]


def test_places_share_a_place_on_equal_keys():
    assert places([(-250, 9), (-10, 1), (-250, 9), (-250, 3)]) == [2, 4, 2, 1]


def test_a_races_pairs_are_whole_games():
    winner, loser = pairwise_rated([(START, 1), (Glicko(1600, 80, 0.06), 2)])
    assert winner == rated(START, [Outcome(1600, 80, 1)])
    assert loser == rated(Glicko(1600, 80, 0.06), [Outcome(START.rating, START.deviation, 0)])
