"""The game state: an immutable value, and the questions it answers (moves.py changes it).

A State is an immutable value. Its board is a small tuple, the `Position`: the removed
heart cards as a bitmask, the free ones (looked up from the removed mask), the stock and waste as
one tuple `pile` in the order the cards are turned with `turned` of them on the waste (so a draw
is one addition and a redeal sets it to 0), the move count and the deadlock flag. Undo keeps the
positions before the last 100 moves in one tuple; positions share their pile tuples, so a game
costs a few kilobytes however long it runs.

>>> state = new_game("HH1-N-AAAAAAM")
>>> state.moves, state.waste_top, len(state.stock), state.free == 1 << 25
(0, 4, 26, True)
"""

from __future__ import annotations

from enum import StrEnum
from typing import Final, Literal, TypeAlias

from .codes import deal_for_code, parse_code
from .errors import ParseError
from .geometry import (
    ALL_POSITIONS_MASK,
    COPIES,
    HEART_SIZE,
    PACK_SIZE,
    RANKS,
    TIP,
    iter_bits,
)

Target: TypeAlias = int | Literal["stock", "waste"]
Selection: TypeAlias = int | Literal["waste"] | None
# The board of one moment, what undo restores: a plain tuple read through the field numbers below.
# A NamedTuple reads the same but made taps and replays 10-12 % slower (docs/performance.md).
Position: TypeAlias = tuple[int, int, tuple[int, ...], int, int, bool]
REMOVED: Final = 0  # heart positions removed, bit p for position p
FREE: Final = 1  # heart positions free, looked up from REMOVED
PILE: Final = 2  # waste bottom ... waste top, then stock top ... stock bottom
TURNED: Final = 3  # how many of the pile lie on the waste
MOVES: Final = 4
DEADLOCKED: Final = 5
UNDO_LIMIT = 100
CARD_SCORE = 10  # a heart card removed; a waste card scores nothing (docs/rules.md, "Score")
WIN_SCORE = CARD_SCORE * HEART_SIZE  # every heart card removed, however the game was played
MISMATCH_REASON = "must be same rank"
MISMATCH_CODE = "same_rank"


class Event(StrEnum):
    """What a tap did. pair, draw and redeal are moves (stored, undoable); the rest are not."""

    SELECTED = "selected"
    DESELECTED = "deselected"
    PAIR = "pair"
    DRAW = "draw"
    REDEAL = "redeal"
    MISMATCH = "mismatch"
    NONE = "none"

    @property
    def is_move(self) -> bool:
        """True for the events that count as a move.

        >>> Event.DRAW.is_move, Event.SELECTED.is_move
        (True, False)
        """
        return self in _MOVES

    @property
    def reason(self) -> str | None:
        """Why a tap was refused, for "Ralat langkah" (move errors): only a mismatch has one.

        >>> Event.MISMATCH.reason, Event.MISMATCH.reason_code, Event.PAIR.reason
        ('must be same rank', 'same_rank', None)
        """
        return MISMATCH_REASON if self is Event.MISMATCH else None

    @property
    def reason_code(self) -> str | None:
        """The stable code of `reason`, for clients that translate it ("Mesti sama pangkat")."""
        return MISMATCH_CODE if self is Event.MISMATCH else None


_MOVES = frozenset({Event.PAIR, Event.DRAW, Event.REDEAL})


class State:
    """One moment of one game. Never mutated: tap, undo and set_placement_help return new ones."""

    __slots__ = (
        "code",
        "dealt",
        "pos",
        "selected",
        "history",
        "undos",
        "placement_help",
        "help_used",
    )

    code: str | None
    dealt: tuple[int, ...]  # the dealt ranks by position, index 0 unused; removal is in pos
    pos: Position
    selected: Selection
    history: tuple[Position, ...]
    undos: int
    placement_help: bool
    help_used: bool

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return f"<State {self.code or 'custom deal'} moves={self.moves} score={self.score}>"

    def _key(self) -> tuple[object, ...]:
        return (
            self.code,
            self.dealt,
            self.pos,
            self.selected,
            self.history,
            self.undos,
            self.placement_help,
            self.help_used,
        )

    @property
    def removed(self) -> int:
        """The removed heart positions as a bitmask (bit p for position p)."""
        return self.pos[REMOVED]

    @property
    def free(self) -> int:
        """The free heart positions as a bitmask (bit p for position p)."""
        return self.pos[FREE]

    @property
    def moves(self) -> int:
        """Draws, redeals and pairs made, less those undone."""
        return self.pos[MOVES]

    @property
    def score(self) -> int:
        """CARD_SCORE for every heart card removed."""
        return CARD_SCORE * self.pos[REMOVED].bit_count()

    @property
    def heart_left(self) -> int:
        """How many heart cards are still in place."""
        return HEART_SIZE - self.pos[REMOVED].bit_count()

    @property
    def won(self) -> bool:
        """All 25 heart cards are gone (cards may remain in the stock)."""
        return self.pos[REMOVED] == ALL_POSITIONS_MASK

    @property
    def deadlocked(self) -> bool:
        """No free heart card has a partner left in the heart's free cards, stock or waste."""
        return self.pos[DEADLOCKED]

    @property
    def can_undo(self) -> bool:
        """A move is left to undo and the game is not won."""
        return bool(self.history) and not self.won

    @property
    def stock(self) -> tuple[int, ...]:
        """The stock's ranks, top first. Secret: never show it to a player."""
        pile, turned = self.pos[PILE], self.pos[TURNED]
        return pile[turned:]

    @property
    def waste(self) -> tuple[int, ...]:
        """The waste's ranks, bottom first; only the top (last) one is public."""
        pile, turned = self.pos[PILE], self.pos[TURNED]
        return pile[:turned]

    @property
    def waste_top(self) -> int | None:
        """The rank on top of the waste, or None when it is empty."""
        pile, turned = self.pos[PILE], self.pos[TURNED]
        return pile[turned - 1] if turned else None

    def rank_at(self, position: int) -> int | None:
        """The rank at a heart position, or None once removed."""
        return None if self.pos[REMOVED] >> position & 1 else self.dealt[position]

    @property
    def heart(self) -> tuple[int | None, ...]:
        """The 25 heart cards in position order (index 0 is position 1): rank, or None once removed.

        >>> new_game("HH1-N-AAAAAAM").heart[24]  # the tip
        12
        """
        removed, dealt = self.pos[REMOVED], self.dealt
        return tuple(None if removed >> p & 1 else dealt[p] for p in range(1, HEART_SIZE + 1))


def make_state(
    code: str | None,
    dealt: tuple[int, ...],
    pos: Position,
    selected: Selection,
    history: tuple[Position, ...],
    undos: int,
    help_on: bool,
    help_used: bool,
) -> State:
    """A State from its parts, unchecked: for the engine's own moves, never for input."""
    state = State.__new__(State)
    state.code, state.dealt, state.pos, state.selected = code, dealt, pos, selected
    state.history, state.undos, state.placement_help, state.help_used = (
        history,
        undos,
        help_on,
        help_used,
    )
    return state


def with_selection(state: State, selected: Selection) -> State:
    """The same state with another selection: selecting is no move, so history stays."""
    return make_state(
        state.code,
        state.dealt,
        state.pos,
        selected,
        state.history,
        state.undos,
        state.placement_help,
        state.help_used,
    )


def check_deal(deal: object) -> tuple[int, ...]:
    """The deal as a tuple if it holds 52 ranks, four of each; ParseError naming the fault.

    >>> check_deal([1] * 52)
    Traceback (most recent call last):
    ...
    game.engine.errors.ParseError: a deal holds four of each rank; rank 1 appears 52 times
    """
    if isinstance(deal, str | bytes) or not hasattr(deal, "__iter__"):
        raise ParseError("a deal is a deal code or a sequence of 52 ranks")
    cards = tuple(deal)
    if len(cards) != PACK_SIZE:
        raise ParseError(f"a deal holds {PACK_SIZE} cards, not {len(cards)}")
    for rank in cards:
        if type(rank) is not int or rank not in RANKS:
            raise ParseError(f"a rank is an int from 1 to 13, not {rank!r}")
    for rank in RANKS:
        if cards.count(rank) != COPIES:
            raise ParseError(
                f"a deal holds four of each rank; rank {rank} appears {cards.count(rank)} times"
            )
    return cards


def new_game(
    code_or_deal: str | tuple[int, ...] | list[int], *, key: str | bytes | None = None
) -> State:
    """The opening state of a deal code, or of an explicit deal of 52 ranks (for tests, tools).

    >>> state = new_game("HH1-N-AAAAAAM")
    >>> state.code, state.heart_left, state.score, state.selected, state.placement_help
    ('HH1-N-AAAAAAM', 25, 0, None, True)
    """
    if isinstance(code_or_deal, str):
        code: str | None = parse_code(code_or_deal)
        deal = deal_for_code(code_or_deal, key)
    else:
        code, deal = None, check_deal(code_or_deal)
    heart = (0,) + deal[:HEART_SIZE]
    # The pile in turning order: the dealt waste card has lain longest, then the stock top first.
    pile = deal[PACK_SIZE - 1 :] + deal[HEART_SIZE : PACK_SIZE - 1]
    pos: Position = (0, 1 << TIP, pile, 1, 0, is_deadlocked(heart, 0, 1 << TIP, pile))
    return make_state(code, heart, pos, None, (), 0, True, False)


def is_deadlocked(heart: tuple[int, ...], removed: int, free: int, pile: tuple[int, ...]) -> bool:
    """True if no free card can ever pair: no free partner and none of its rank in the pile."""
    if removed == ALL_POSITIONS_MASK:
        return False
    seen = 0
    for p in iter_bits(free):
        bit = 1 << heart[p]
        if seen & bit or heart[p] in pile:
            return False
        seen |= bit
    return True
