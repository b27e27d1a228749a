"""The actions that change a game: tap (the one entry point for play), undo and the help setting,
and `step`, which applies one entry of a game's action log (as replay does) with what it did.

Each returns a new State; a tap the rules ignore returns the same state with Event.NONE.

>>> state, event = tap(new_game("HH1-N-AAAAAAM"), "stock")
>>> event, state.moves, state.waste_top, undo(state).moves
(<Event.DRAW: 'draw'>, 1, 4, 0)
"""

from __future__ import annotations

from typing import Literal, TypeAlias

from .errors import ParseError, RuleError
from .geometry import ALL_POSITIONS_MASK, HEART_SIZE, free_mask
from .state import (
    FREE,
    PILE,
    REMOVED,
    TURNED,
    UNDO_LIMIT,
    Event,
    Position,
    State,
    Target,
    is_deadlocked,
    make_state,
    with_selection,
)
from .state import new_game as new_game  # the doctests below start games

__all__ = [
    "ACTION_WORDS",
    "Action",
    "StepEvent",
    "parse_action",
    "parse_target",
    "set_placement_help",
    "step",
    "tap",
    "undo",
]
Action: TypeAlias = int | str
# What a log entry did: a tap's Event, or "undo" and "settings" for the entries that are no tap.
StepEvent: TypeAlias = Event | Literal["undo", "settings"]
ACTION_WORDS = ("stock", "waste", "undo", "help-on", "help-off")
_DIGITS = {str(p): p for p in range(1, HEART_SIZE + 1)}  # "7" -> 7; no signs, spaces or zeros
# Every valid action, mapped to the position it taps (1-25) or the word it stands for.
_ACTIONS: dict[object, int | str] = {word: word for word in ACTION_WORDS}
_ACTIONS.update({p: p for p in range(1, HEART_SIZE + 1)})
_ACTIONS.update(_DIGITS)


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


def parse_action(value: object) -> Action:
    """One log entry checked: a position 1-25 (int or digits) or one of the action words.

    >>> parse_action("12"), parse_action("undo")
    (12, 'undo')
    """
    # Exact types only: True == 1 and 3.0 == 3 would otherwise find entries in the table.
    action = _ACTIONS.get(value) if type(value) is int or type(value) is str else None
    if action is None:
        raise ParseError(f"not an action: {value!r}")
    return action


def step(state: State, action: object) -> tuple[State, StepEvent]:
    """Apply one log entry (a tap target, "undo", "help-on" or "help-off"); the new state and
    what it did. ParseError on a malformed entry, RuleError on an undo the rules refuse.

    >>> state, event = step(new_game("HH1-N-AAAAAAM"), "stock")
    >>> event, step(state, "undo")[1], step(state, "help-off")[1]
    (<Event.DRAW: 'draw'>, 'undo', 'settings')
    """
    # The action table and the heart tap are inlined (no parse_action, no tap): replay runs this
    # for every entry of every log it rebuilds.
    parsed = _ACTIONS.get(action) if type(action) is int or type(action) is str else None
    if type(parsed) is int:
        pos = state.pos
        if pos[FREE] >> parsed & 1 and pos[REMOVED] != ALL_POSITIONS_MASK:
            return _choose(state, parsed, state.dealt[parsed])
        return state, Event.NONE
    if parsed == "stock":
        return _tap_stock(state)
    if parsed == "undo":
        return undo(state), "undo"
    if parsed == "help-on" or parsed == "help-off":
        return set_placement_help(state, parsed == "help-on"), "settings"
    if parsed is None:
        raise ParseError(f"not an action: {action!r}")
    return tap(state, parsed)


def tap(state: State, target: object) -> tuple[State, Event]:
    """Tap a heart position (1-25), "stock" or "waste"; the new state and what happened.

    A tap the rules ignore (a covered or empty position, an empty waste, anything after a win)
    returns the same state and Event.NONE; a malformed target raises ParseError.

    >>> state, event = tap(new_game("HH1-N-AAAAAAM"), 1)
    >>> event
    <Event.NONE: 'none'>
    """
    if type(target) is int and 0 < target <= HEART_SIZE:
        pos = state.pos
        if pos[FREE] >> target & 1 and pos[REMOVED] != ALL_POSITIONS_MASK:
            return _choose(state, target, state.dealt[target])
        return state, Event.NONE
    if target == "stock":
        return _tap_stock(state)
    if target == "waste":
        pos = state.pos
        if pos[TURNED] and pos[REMOVED] != ALL_POSITIONS_MASK:
            return _choose(state, "waste", pos[PILE][pos[TURNED] - 1])
        return state, Event.NONE
    return tap(state, parse_target(target))


def _choose(state: State, target: int | Literal["waste"], rank: int) -> tuple[State, Event]:
    """Selection logic once the tapped card is known to be playable."""
    selected = state.selected
    if selected is None:
        return with_selection(state, target), Event.SELECTED
    if selected == target:
        return with_selection(state, None), Event.DESELECTED
    other = state.waste_top if selected == "waste" else state.dealt[selected]
    if other != rank:
        return with_selection(state, target), Event.MISMATCH
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
    dead = is_deadlocked(state.dealt, removed, free, pile)
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
    return make_state(
        state.code,
        state.dealt,
        pos,
        None,
        history + (state.pos,),
        state.undos,
        state.placement_help,
        state.help_used or state.placement_help,
    )


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
    return make_state(
        state.code,
        state.dealt,
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
    return make_state(
        state.code,
        state.dealt,
        state.pos,
        state.selected,
        state.history,
        state.undos,
        bool(on),
        state.help_used,
    )
