"""Plausibility flags: whether a game looks like a person's play, read from its stored log.

Not a rule of the game and never a verdict: a flag only asks a person to look at the replay.
It is pure (no Django): the input is the game's start and its action log with each entry's
server time, exactly as stored.

The log stores moves, not taps: a pair is two entries with one time (selecting its first card
is a tap the log does not keep), a draw, a redeal, an undo or a settings change is one. So each
stored move is timed from the one before it (the first from the start) and divided by the taps
it needed. A person's finger tops out at about six or seven taps a second, and a person also
has to read the cards; the play socket admits ten frames a second (TAP_RATE) after a burst
of twenty, which is where a bot driven by a solver plays.

The stock's order is the one thing a player does not see, and undo can read it: draw every
card, undo every draw, and play a line computed from what was shown. A ranked result is also
read for that (`stock_scouted`): the stock cards that a draw showed for the first time and an
undo then took back, counted from the log's moves. A card seen once stays seen, so drawing it
again after an undo or a redeal is no peek; one unwanted draw taken back is one.

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

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import datetime
from statistics import median

from game.engine.geometry import HEART_SIZE, PACK_SIZE

# Faster than this for one tap is faster than a person taps: under 0.15 s is above 6.7 a second.
MACHINE_TAP_S = 0.15
MOST = 0.5  # "most of the game": more than this share of the moves
MIN_MOVES = 10  # fewer timed moves say nothing about a pace
MIN_PAIRS = 8  # a won game has at least 13 pairs
SINGLE_TAPS = ("stock", "undo", "help-on", "help-off")  # one stored entry for one tap
PILE_SIZE = PACK_SIZE - HEART_SIZE  # the dealt waste card, then the 26 of the stock
SCOUTED_CARDS = 10  # peeked stock cards that flag a ranked result: over a third of the stock

# The stock and waste as one pile: its cards in turning order (the waste's bottom first), each
# named by its place in the dealt pile, and how many of them are turned onto the waste.
Pile = tuple[tuple[int, ...], int]

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


def flags_for(
    *, started_at: datetime, log: Iterable[tuple[str, datetime]], ranked: bool = False
) -> list[Flag]:
    """Every reason a game's log gives to review its result; empty for a person's game. The
    timing is read on every result, the stock's scouting on a ranked one only (`ranked`)."""
    log = list(log)
    moves = timed_moves(started_at=started_at, log=log)
    pairs = [move for move in moves if move.pair]
    found = [
        _flag_if_most_fast("fast_taps", "moves", moves, least=MIN_MOVES),
        _flag_if_most_fast("fast_pairs", "pairs", pairs, least=MIN_PAIRS),
        _flag_if_scouted(log) if ranked else None,
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


def peeked_cards(log: Iterable[tuple[str, datetime]]) -> int:
    """How many stock cards a draw showed for the first time and an undo then took back.

    The pile is followed from the log alone: a draw turns the next card, a redeal turns the
    waste back over, a pair with "waste" takes its top, and an undo restores the pile from
    before the move it takes back. A card once shown stays seen: drawn again after an undo or
    a redeal, it shows nothing new; taken back after its first showing, it was peeked at.

    >>> from datetime import datetime
    >>> t = datetime(2026, 1, 1)
    >>> peeked_cards([(a, t) for a in ["stock"] * 3 + ["undo"] * 3 + ["stock", "undo"]])
    3
    """
    pile: Pile = (tuple(range(PILE_SIZE)), 1)  # the cards by their first places, 1 turned
    seen: set[int | None] = {None, 0}  # the dealt waste card; None is "no card turned"
    history: list[tuple[Pile, bool]] = []  # before each move, and whether it first showed a card
    peeked = 0
    for move in _pile_moves(log):
        if move == "undo":
            pile, showed = history.pop()
            peeked += showed
            continue
        after = _pile_after(pile, move)
        drawn = _drawn(pile, after)
        history.append((pile, drawn not in seen))
        seen.add(drawn)
        pile = after
    return peeked


def _pile_moves(log: Iterable[tuple[str, datetime]]) -> Iterator[str]:
    """Each stored move as "stock", "undo", "waste" (a pair taking the waste's top) or "pair";
    settings are no move and are skipped."""
    first = None
    for action, _at in log:
        if action in ("help-on", "help-off"):
            continue
        if action in ("stock", "undo"):
            yield action
        elif first is None:
            first = action  # a pair's first card: the move is its second entry
        else:
            yield "waste" if "waste" in (first, action) else "pair"
            first = None


def _pile_after(pile: Pile, move: str) -> Pile:
    """The pile after a move."""
    cards, turned = pile
    if move == "stock":
        return (cards, turned + 1) if turned < len(cards) else (cards, 0)
    if move == "waste":
        return cards[: turned - 1] + cards[turned:], turned - 1
    return pile


def _drawn(pile: Pile, after: Pile) -> int | None:
    """The card a move turned onto the waste: a draw's, else None."""
    (_cards, turned), (cards, now) = pile, after
    return cards[now - 1] if now == turned + 1 else None


def _flag_if_scouted(log: list[tuple[str, datetime]]) -> Flag | None:
    peeked = peeked_cards(log)
    if peeked < SCOUTED_CARDS:
        return None
    return Flag(
        "stock_scouted",
        f"{peeked} of the stock's {PILE_SIZE - 1} cards were first shown by a draw"
        " that was then undone",
    )
