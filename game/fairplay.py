"""Plausibility flags: whether a game's timing looks like a person's, read from its stored log.

Not a rule of the game and never a verdict: a flag only asks a person to look at the replay.
It is pure (no Django): the input is the game's start and its action log with each entry's
server time, exactly as stored.

The log stores moves, not taps: a pair is two entries with one time (selecting its first card
is a tap the log does not keep), a draw, a redeal, an undo or a settings change is one. So each
stored move is timed from the one before it (the first from the start) and divided by the taps
it needed. A person's finger tops out at about six or seven taps a second, and a person also
has to read the cards; the play socket admits ten frames a second (TAP_RATE) after a burst
of twenty, which is where a bot driven by a solver plays.

>>> from datetime import datetime, timedelta
>>> start = datetime(2026, 1, 1)
>>> bot = [(action, start + timedelta(seconds=i / 10)) for i, action in enumerate(
...     ["stock"] * 30 + ["25", "waste"] * 10)]
>>> [flag.reason for flag in flags_for(started_at=start, log=bot)]
['fast_taps', 'fast_pairs']
>>> person = [(action, start + timedelta(seconds=2 * i)) for i, action in enumerate(
...     ["stock"] * 30 + ["25", "waste"] * 10)]
>>> flags_for(started_at=start, log=person)
[]
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from statistics import median

# Faster than this for one tap is faster than a person taps: under 0.15 s is above 6.7 a second.
MACHINE_TAP_S = 0.15
MOST = 0.5  # "most of the game": more than this share of the moves
MIN_MOVES = 10  # fewer timed moves say nothing about a pace
MIN_PAIRS = 8  # a won game has at least 13 pairs
SINGLE_TAPS = ("stock", "undo", "help-on", "help-off")  # one stored entry for one tap

REASONS = {
    "fast_taps": "most moves came faster than a person taps",
    "fast_pairs": "most pairs were taken faster than a person finds and taps them",
    "stock_scouted": "draws were taken back after they showed stock cards not seen before",
}


@dataclass(frozen=True)
class Move:
    """One stored move: whether it was a pair, the taps it took, and seconds since the last."""

    pair: bool
    taps: int
    seconds: float

    @property
    def machine_paced(self) -> bool:
        return self.seconds < MACHINE_TAP_S * self.taps


@dataclass(frozen=True)
class Flag:
    """A reason to review a result (a key of REASONS) and what was measured."""

    reason: str
    detail: str


def flags_for(*, started_at: datetime, log: Iterable[tuple[str, datetime]]) -> list[Flag]:
    """Every reason the timing of a game's log gives to review it; empty for a person's pace."""
    moves = timed_moves(started_at=started_at, log=log)
    pairs = [move for move in moves if move.pair]
    found = [
        _flag_if_most_fast("fast_taps", "moves", moves, least=MIN_MOVES),
        _flag_if_most_fast("fast_pairs", "pairs", pairs, least=MIN_PAIRS),
    ]
    return [flag for flag in found if flag is not None]


def timed_moves(*, started_at: datetime, log: Iterable[tuple[str, datetime]]) -> list[Move]:
    """The log's moves in order, each timed from the move before it (the first from the start).

    >>> from datetime import datetime, timedelta
    >>> t = datetime(2026, 1, 1)
    >>> timed_moves(started_at=t, log=[("stock", t), ("7", t + timedelta(seconds=2)),
    ...                                ("waste", t + timedelta(seconds=2))])
    [Move(pair=False, taps=1, seconds=0.0), Move(pair=True, taps=2, seconds=2.0)]
    """
    moves, last, half_pair = [], started_at, False
    for action, at in log:
        if action not in SINGLE_TAPS and not half_pair:
            half_pair = True  # the pair's first card: its time is the second's
            continue
        moves.append(Move(pair=half_pair, taps=2 if half_pair else 1, seconds=_seconds(last, at)))
        last, half_pair = at, False
    return moves


def _seconds(earlier: datetime, later: datetime) -> float:
    return max(0.0, (later - earlier).total_seconds())


def _flag_if_most_fast(reason: str, noun: str, moves: list[Move], *, least: int) -> Flag | None:
    fast = sum(move.machine_paced for move in moves)
    if len(moves) < least or fast <= MOST * len(moves):
        return None
    per_tap = median(move.seconds / move.taps for move in moves)
    return Flag(
        reason,
        f"{fast} of {len(moves)} {noun} came at under {MACHINE_TAP_S:.2f} s a tap"
        f" (median {per_tap:.3f} s a tap)",
    )
