"""A daily deal's difficulty on the players' rating scale, rated as lichess rates puzzles.

The seed comes from the solver's shortest winning line (deal_line): its par, the fewest moves
that win the deal, and the passes through the stock it needs. Over 300 random winnable deals
the median par was 78 (standard deviation 13) and the median line went through the stock 3
times (2 to 5). Each move of par over the median adds PER_MOVE points, and each pass over
three PER_PASS more: a pass is the whole stock turned again, the order of its cards to keep in
mind. The two follow each other closely (correlation 0.87), so a deal far off the median on
both is far off indeed:

>>> round(deal_seed(Line(par=78, passes=3)).rating), round(deal_seed(Line(98, 4)).rating)
(1500, 1720)

The day's results then correct it. The deal stands on its day's board as a result that cleared
the heart at the last moment: a player whose result cleared it placed above the deal and beat
it; every other placed below and lost to it. Its expected place follows from the players'
ratings and its own (one more than the sum of each player's expected score against it); the
more players beat it than expected, the lower its rating goes:

>>> from game.domain.glicko2 import START
>>> seed = deal_seed(Line(par=78, passes=3))
>>> easier = deal_rated(seed, [(START, True)] * 9 + [(START, False)])
>>> harder = deal_rated(seed, [(START, True)] + [(START, False)] * 9)
>>> easier.rating < seed.rating < harder.rating
True
"""

from collections.abc import Iterable
from typing import NamedTuple

from game.domain.glicko2 import (
    START_RATING,
    START_VOLATILITY,
    Glicko,
    Outcome,
    expected_score,
    rated,
)
from game.engine import Event, min_moves_plan, new_game, step

MEDIAN_PAR, MEDIAN_PASSES = 78, 3
PER_MOVE = 8.0  # rating points per move of par
PER_PASS = 60.0  # rating points per pass through the stock
SEED_DEVIATION = 350.0  # a prior from the solver, not yet a measurement


class Line(NamedTuple):
    """The solver's shortest winning line: its moves (par) and its passes through the stock
    (one more than its redeals)."""

    par: int
    passes: int


def deal_line(code: str, *, key: str) -> Line | None:
    """The shortest winning line of the deal (a tenth of a second at most for daily deals), or
    None for a deal that cannot be won."""
    plan = min_moves_plan(code, key=key)
    if plan is None:
        return None
    state, redeals = new_game(code, key=key), 0
    for action in plan:
        state, event = step(state, action)
        redeals += event == Event.REDEAL
    return Line(par=_moves(plan), passes=redeals + 1)


def _moves(plan: list) -> int:
    stock_taps = plan.count("stock")
    return stock_taps + (len(plan) - stock_taps) // 2


def deal_seed(line: Line | None) -> Glicko:
    """The difficulty the solver suggests before anyone plays (START_RATING without a line)."""
    rating = START_RATING
    if line is not None:
        rating += PER_MOVE * (line.par - MEDIAN_PAR) + PER_PASS * (line.passes - MEDIAN_PASSES)
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
    >>> deal_expected_place(deal_seed(Line(78, 3)), [START, START])
    2.0
    """
    return 1 + sum(
        1 - expected_score(deal.rating, player.rating, player.deviation) for player in players
    )
