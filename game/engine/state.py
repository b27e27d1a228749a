"""The game state and the one action that changes it: tap (plus undo and the help setting).

A State is an immutable value. Its board is a small tuple, the *position*: the removed heart
cards as a bitmask, the free ones (looked up from the removed mask), the stock and waste as one
tuple `pile` in the order the cards are turned with `turned` of them on the waste (so a draw is
one addition and a redeal sets it to 0), the move count and the deadlock flag. Undo keeps the
positions before the last 100 moves in one tuple; positions share their pile tuples, so a game
costs a few kilobytes however long it runs.

>>> state = new_game("HH1-N-AAAAAAM")
>>> state, event = tap(state, "stock")
>>> event, state.moves, state.waste_top
(<Event.DRAW: 'draw'>, 1, 4)
"""

from __future__ import annotations

from enum import StrEnum
from typing import Literal, TypeAlias

from .codes import deal_for_code, parse_code
from .errors import ParseError, RuleError
from .geometry import (
    ALL_POSITIONS_MASK,
    COPIES,
    HEART_SIZE,
    PACK_SIZE,
    RANKS,
    TIP,
    free_mask,
    iter_bits,
)

Target: TypeAlias = int | Literal["stock", "waste"]
Selection: TypeAlias = int | Literal["waste"] | None
# removed mask, free mask, pile (waste bottom ... top, stock top ... bottom), turned, moves, dead
Position: TypeAlias = tuple[int, int, tuple[int, ...], int, int, bool]
UNDO_LIMIT = 100
MISMATCH_REASON = "must be same rank"
MISMATCH_CODE = "same_rank"
_DIGITS = {str(p): p for p in range(1, HEART_SIZE + 1)}  # "7" -> 7; no signs, spaces or zeros


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


_MOVES = frozenset({Event.PAIR, Event.DRAW, Event.REDEAL})


class State:
    """One moment of one game. Never mutated: tap, undo and set_placement_help return new ones."""

    __slots__ = (
        "code",
        "heart",
        "pos",
        "selected",
        "history",
        "undos",
        "placement_help",
        "help_used",
    )

    code: str | None
    heart: tuple[int, ...]  # the dealt ranks by position, index 0 unused; removal is in pos
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
            self.heart,
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
        return self.pos[0]

    @property
    def free(self) -> int:
        """The free heart positions as a bitmask (bit p for position p)."""
        return self.pos[1]

    @property
    def moves(self) -> int:
        """Draws, redeals and pairs made, less those undone."""
        return self.pos[4]

    @property
    def score(self) -> int:
        """Ten for every heart card removed."""
        return 10 * self.pos[0].bit_count()

    @property
    def heart_left(self) -> int:
        """How many heart cards are still in place."""
        return HEART_SIZE - self.pos[0].bit_count()

    @property
    def won(self) -> bool:
        """All 25 heart cards are gone (cards may remain in the stock)."""
        return self.pos[0] == ALL_POSITIONS_MASK

    @property
    def deadlocked(self) -> bool:
        """No free heart card has a partner left in the heart's free cards, stock or waste."""
        return self.pos[5]

    @property
    def can_undo(self) -> bool:
        """A move is left to undo and the game is not won."""
        return bool(self.history) and not self.won

    @property
    def stock(self) -> tuple[int, ...]:
        """The stock's ranks, top first. Secret: never show it to a player."""
        return self.pos[2][self.pos[3] :]

    @property
    def waste(self) -> tuple[int, ...]:
        """The waste's ranks, bottom first; only the top (last) one is public."""
        return self.pos[2][: self.pos[3]]

    @property
    def waste_top(self) -> int | None:
        """The rank on top of the waste, or None when it is empty."""
        turned = self.pos[3]
        return self.pos[2][turned - 1] if turned else None

    def rank_at(self, position: int) -> int | None:
        """The rank at a heart position, or None once removed."""
        return None if self.pos[0] >> position & 1 else self.heart[position]


def _make(
    code: str | None,
    heart: tuple[int, ...],
    pos: Position,
    selected: Selection,
    history: tuple[Position, ...],
    undos: int,
    help_on: bool,
    help_used: bool,
) -> State:
    state = State.__new__(State)
    state.code, state.heart, state.pos, state.selected = code, heart, pos, selected
    state.history, state.undos, state.placement_help, state.help_used = (
        history,
        undos,
        help_on,
        help_used,
    )
    return state


def _with_selected(state: State, selected: Selection) -> State:
    return _make(
        state.code,
        state.heart,
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
    pos: Position = (0, 1 << TIP, pile, 1, 0, _deadlocked(heart, 0, 1 << TIP, pile))
    return _make(code, heart, pos, None, (), 0, True, False)


def parse_target(value: object) -> Target:
    """A tap target from untrusted input: 1-25 (int or digit string), "stock" or "waste".

    >>> parse_target("7"), parse_target(25), parse_target("waste")
    (7, 25, 'waste')
    >>> parse_target(True)
    Traceback (most recent call last):
    ...
    game.engine.errors.ParseError: a target is a position 1-25, "stock" or "waste", not True
    """
    if value == "stock" or value == "waste":
        return "stock" if value == "stock" else "waste"
    if type(value) is int and 1 <= value <= HEART_SIZE:
        return value
    if type(value) is str and value in _DIGITS:
        return _DIGITS[value]
    raise ParseError(f'a target is a position 1-{HEART_SIZE}, "stock" or "waste", not {value!r}')


def tap(state: State, target: object) -> tuple[State, Event]:
    """Tap a heart position (1-25), "stock" or "waste"; the new state and what happened.

    A tap the rules ignore (a covered or empty position, an empty waste, anything after a win)
    returns the same state and Event.NONE; a malformed target raises ParseError.

    >>> state, event = tap(new_game("HH1-N-AAAAAAM"), 1)
    >>> event
    <Event.NONE: 'none'>
    """
    if type(target) is int and 0 < target <= HEART_SIZE:
        if state.pos[1] >> target & 1 and state.pos[0] != ALL_POSITIONS_MASK:
            return _choose(state, target, state.heart[target])
        return state, Event.NONE
    if target == "stock":
        return _tap_stock(state)
    if target == "waste":
        turned = state.pos[3]
        if turned and state.pos[0] != ALL_POSITIONS_MASK:
            return _choose(state, "waste", state.pos[2][turned - 1])
        return state, Event.NONE
    return tap(state, parse_target(target))


def _choose(state: State, target: int | Literal["waste"], rank: int) -> tuple[State, Event]:
    """Selection logic once the tapped card is known to be playable."""
    selected = state.selected
    if selected is None:
        return _with_selected(state, target), Event.SELECTED
    if selected == target:
        return _with_selected(state, None), Event.DESELECTED
    other = state.pos[2][state.pos[3] - 1] if selected == "waste" else state.heart[selected]
    if other != rank:
        return _with_selected(state, target), Event.MISMATCH
    return _pair(state, selected, target), Event.PAIR


def _pair(state: State, first: int | Literal["waste"], second: int | Literal["waste"]) -> State:
    removed, _free, pile, turned, moves, _dead = state.pos
    for card in (first, second):
        if card == "waste":
            pile = pile[: turned - 1] + pile[turned:]
            turned -= 1
        else:
            removed |= 1 << card
    free = free_mask(removed)
    dead = _deadlocked(state.heart, removed, free, pile)
    return _moved(state, (removed, free, pile, turned, moves + 1, dead))


def _tap_stock(state: State) -> tuple[State, Event]:
    removed, free, pile, turned, moves, dead = state.pos
    if removed == ALL_POSITIONS_MASK or not pile:
        return state, Event.NONE
    if turned < len(pile):
        return _moved(state, (removed, free, pile, turned + 1, moves + 1, dead)), Event.DRAW
    # Redeal: the whole waste turned over, so the card that lay longest comes up first again.
    return _moved(state, (removed, free, pile, 0, moves + 1, dead)), Event.REDEAL


def _moved(state: State, pos: Position) -> State:
    history = state.history
    if len(history) >= UNDO_LIMIT:
        history = history[1 - UNDO_LIMIT :]
    return _make(
        state.code,
        state.heart,
        pos,
        None,
        history + (state.pos,),
        state.undos,
        state.placement_help,
        state.help_used or state.placement_help,
    )


def _deadlocked(heart: tuple[int, ...], removed: int, free: int, pile: tuple[int, ...]) -> bool:
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


def undo(state: State) -> State:
    """Take back the last draw, redeal or pair (up to 100 moves back); clears the selection.

    >>> start = new_game("HH1-N-AAAAAAM")
    >>> state = undo(tap(start, "stock")[0])
    >>> state.pos == start.pos, state.undos
    (True, 1)
    """
    if state.won:
        raise RuleError("the game is won: nothing can be undone")
    if not state.history:
        raise RuleError("nothing to undo")
    history = state.history
    return _make(
        state.code,
        state.heart,
        history[-1],
        None,
        history[:-1],
        state.undos + 1,
        state.placement_help,
        state.help_used,
    )


def set_placement_help(state: State, on: bool) -> State:
    """Switch "Bantuan penempatan" (placement help) on or off; not a move.

    >>> set_placement_help(new_game("HH1-N-AAAAAAM"), False).placement_help
    False
    """
    return _make(
        state.code,
        state.heart,
        state.pos,
        state.selected,
        state.history,
        state.undos,
        bool(on),
        state.help_used,
    )
