"""Glicko-2 (Glickman, "Example of the Glicko-2 system"), with lichess's constants: pure Python.

Written here rather than taken from a library because the daily rating needs two things the
kept libraries do not offer: weighted games (a day's virtual games count as one game's
evidence in all, docs/ratings.md) and a period rated from its sums alone, so that a field of
100,000 players can be summed in bins instead of pair by pair (game.domain.virtual_games).

Ratings are kept on the Glicko scale (1500, RD 350 ...) and converted to Glicko-2's own scale
(mu, phi) only inside a period. The paper's worked example, with its tau of 0.5, gives
r' = 1464.06, RD' = 151.52 and sigma' = 0.05999 from intermediate values rounded to four places;
unrounded, the rating comes 0.01 lower and the volatility rounds to the paper's 0.059996:

>>> player = Glicko(1500, 200, 0.06)
>>> games = [Outcome(1400, 30, 1), Outcome(1550, 100, 0), Outcome(1700, 300, 0)]
>>> after = rated(player, games, tau=0.5)
>>> round(after.rating, 2), round(after.deviation, 2), round(after.volatility, 6)
(1464.05, 151.52, 0.059996)
>>> abs(after.rating - 1464.06) < 0.015 and abs(after.volatility - 0.05999) < 0.00001
True
"""

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass

START_RATING = 1500.0
START_DEVIATION = 500.0
START_VOLATILITY = 0.09
TAU = 0.75  # how fast volatility may change
MIN_DEVIATION = 45.0  # never this sure of anyone: ratings keep moving
PROVISIONAL_DEVIATION = 110.0  # a rating this uncertain shows with "?"

SCALE = 173.7178  # Glicko-2's ratio between the two scales
CONVERGENCE = 1e-6  # the volatility's iteration stops within this


@dataclass(frozen=True)
class Glicko:
    """A rating on the Glicko scale, its deviation (RD) and its volatility."""

    rating: float
    deviation: float
    volatility: float


START = Glicko(START_RATING, START_DEVIATION, START_VOLATILITY)


@dataclass(frozen=True)
class Outcome:
    """One game of a period: the opponent's rating and deviation before it, the score against
    it (1 a win, 0.5 a draw, 0 a loss), and how much of a game it counts for."""

    rating: float
    deviation: float
    score: float
    weight: float = 1.0


@dataclass(frozen=True)
class PeriodSums:
    """What a period's games add up to on Glicko-2's scale: `information` is the sum of
    weight * g^2 * E * (1 - E) (the inverse of the paper's v), `improvement` the sum of
    weight * g * (score - E). A period without games has both 0."""

    information: float
    improvement: float


def rated(player: Glicko, outcomes: Iterable[Outcome], tau: float = TAU) -> Glicko:
    """The player after one rating period of these games; with none, only RD grows.

    >>> after = rated(START, [Outcome(1500, 500, 1)])
    >>> after.rating > START.rating and after.deviation < START.deviation
    True
    >>> rated(START, []) == START  # RD grows, but is capped at the start's
    True
    """
    return rated_by_sums(player, period_sums(player, outcomes), tau)


def period_sums(player: Glicko, outcomes: Iterable[Outcome]) -> PeriodSums:
    """The period's sums (PeriodSums), game by game."""
    mu = to_mu(player.rating)
    information = improvement = 0.0
    for outcome in outcomes:
        g = g_of(to_phi(outcome.deviation))
        expected = expected_mu(mu, to_mu(outcome.rating), g)
        information += outcome.weight * g * g * expected * (1 - expected)
        improvement += outcome.weight * g * (outcome.score - expected)
    return PeriodSums(information, improvement)


def rated_by_sums(player: Glicko, sums: PeriodSums, tau: float = TAU) -> Glicko:
    """The player after a period that added up to `sums` (steps 3 to 8 of the paper).

    Evidence never makes a rating less certain: RD after a period with games is at most its
    RD after the same period without (a sharp rise in volatility could otherwise undo the
    games' information, when the games weigh little).
    """
    if sums.information <= 0:
        return grown(player, 1)
    mu, phi = to_mu(player.rating), to_phi(player.deviation)
    variance = 1 / sums.information
    delta = variance * sums.improvement
    volatility = _new_volatility(phi, player.volatility, variance, delta, tau)
    phi_star = min(math.hypot(phi, volatility), math.hypot(phi, player.volatility))
    new_phi = 1 / math.sqrt(1 / phi_star**2 + sums.information)
    new_mu = mu + new_phi**2 * sums.improvement
    return Glicko(from_mu(new_mu), _bounded(from_phi(new_phi)), volatility)


def grown(player: Glicko, periods: float) -> Glicko:
    """The player after `periods` rating periods without games (days idle): RD grows by the
    volatility each period, up to the start's.

    >>> settled = Glicko(1800, 60, 0.06)
    >>> round(grown(settled, 0).deviation, 2), round(grown(settled, 365).deviation, 2)
    (60.0, 207.98)
    """
    phi = math.sqrt(to_phi(player.deviation) ** 2 + max(periods, 0) * player.volatility**2)
    deviation = min(from_phi(phi), max(player.deviation, START_DEVIATION))
    return Glicko(player.rating, deviation, player.volatility)


def is_provisional(deviation: float) -> bool:
    """Whether a rating is still too uncertain to rank by: it shows with "?".

    >>> is_provisional(START_DEVIATION), is_provisional(PROVISIONAL_DEVIATION - 1)
    (True, False)
    """
    return deviation >= PROVISIONAL_DEVIATION


def expected_score(rating: float, opponent_rating: float, opponent_deviation: float) -> float:
    """The score a player of `rating` expects against this opponent (0 to 1).

    >>> expected_score(1500, 1500, 200)
    0.5
    >>> round(expected_score(1700, 1500, 45), 3)
    0.758
    """
    g = g_of(to_phi(opponent_deviation))
    return expected_mu(to_mu(rating), to_mu(opponent_rating), g)


def g_of(phi: float) -> float:
    """How much an opponent's uncertainty (phi) dampens what a game against it says."""
    return 1 / math.sqrt(1 + 3 * phi * phi / math.pi**2)


def expected_mu(mu: float, opponent_mu: float, g: float) -> float:
    return 1 / (1 + math.exp(-g * (mu - opponent_mu)))


def to_mu(rating: float) -> float:
    return (rating - START_RATING) / SCALE


def from_mu(mu: float) -> float:
    return mu * SCALE + START_RATING


def to_phi(deviation: float) -> float:
    return deviation / SCALE


def from_phi(phi: float) -> float:
    return phi * SCALE


def _bounded(deviation: float) -> float:
    return min(max(deviation, MIN_DEVIATION), START_DEVIATION)


def _new_volatility(phi: float, sigma: float, variance: float, delta: float, tau: float) -> float:
    """Step 5 of the paper: the root of f by the Illinois algorithm."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        top = ex * (delta * delta - phi * phi - variance - ex)
        return top / (2 * (phi * phi + variance + ex) ** 2) - (x - a) / (tau * tau)

    low, high = a, _upper_bracket(f, a, phi, variance, delta, tau)
    f_low, f_high = f(low), f(high)
    while abs(high - low) > CONVERGENCE:
        middle = low + (low - high) * f_low / (f_high - f_low)
        f_middle = f(middle)
        if f_middle * f_high <= 0:
            low, f_low = high, f_high
        else:
            f_low /= 2
        high, f_high = middle, f_middle
    return math.exp(low / 2)


def _upper_bracket(
    f: Callable[[float], float], a: float, phi: float, variance: float, delta: float, tau: float
) -> float:
    if delta * delta > phi * phi + variance:
        return math.log(delta * delta - phi * phi - variance)
    k = 1
    while f(a - k * tau) < 0:
        k += 1
    return a - k * tau
