"""A daily deal's difficulty on the players' rating scale, rated as lichess rates puzzles.

The seed comes from the solver's par, the fewest moves that win the deal: over 300 random
winnable deals the median par was 78 and its standard deviation 13, and the passes through the
stock that the shortest line needs (2 to 5, 3 for most) followed par closely (correlation
0.87), so par alone carries them. Each move of par over the median adds PER_MOVE points:

>>> round(deal_seed(par=78).rating), round(deal_seed(par=98).rating)
(1500, 1700)

The day's results then correct it. The deal stands on its day's board as a result that cleared
the heart at the last moment: a player whose result cleared it placed above the deal and beat
it; every other placed below and lost to it. Its expected place follows from the players'
ratings and its own (one more than the sum of each player's expected score against it); the
more players beat it than expected, the lower its rating goes:

>>> from game.domain.glicko2 import START
>>> seed = deal_seed(par=78)
>>> easier = deal_rated(seed, [(START, True)] * 9 + [(START, False)])
>>> harder = deal_rated(seed, [(START, True)] + [(START, False)] * 9)
>>> easier.rating < seed.rating < harder.rating
True
"""

from collections.abc import Iterable

from game.domain.glicko2 import (
    START_RATING,
    START_VOLATILITY,
    Glicko,
    Outcome,
    expected_score,
    rated,
)

MEDIAN_PAR = 78
PER_MOVE = 10.0  # rating points per move of par: one standard deviation of par is 130 points
SEED_DEVIATION = 350.0  # a prior from the solver, not yet a measurement


def deal_seed(*, par: int | None) -> Glicko:
    """The difficulty the solver suggests before anyone plays: from par (START_RATING when par is
    unknown)."""
    rating = START_RATING if par is None else START_RATING + PER_MOVE * (par - MEDIAN_PAR)
    return Glicko(rating, SEED_DEVIATION, START_VOLATILITY)


def deal_rated(deal: Glicko, players: Iterable[tuple[Glicko, bool]]) -> Glicko:
    """The deal after its day: one game against each player (their rating before the day, and
    whether they beat it, cleared the heart), each a whole game, as a puzzle's every attempt is."""
    outcomes = [
        Outcome(player.rating, player.deviation, 0.0 if beaten else 1.0)
        for player, beaten in players
    ]
    return rated(deal, outcomes)


def deal_expected_place(deal: Glicko, players: Iterable[Glicko]) -> float:
    """Where the deal is expected to stand on its board: one more than the players expected to
    beat it.

    >>> from game.domain.glicko2 import START
    >>> deal_expected_place(deal_seed(par=78), [START, START])
    2.0
    """
    return 1 + sum(
        1 - expected_score(deal.rating, player.rating, player.deviation) for player in players
    )
