"""Replay: a game is its code plus its action log, so every state is rebuilt by this one call.

>>> state = replay("HH1-N-AAAAAAM", ["stock", "25", "waste", "undo", "help-off"])
>>> state.moves, state.undos, state.placement_help
(0, 1, False)
"""

from __future__ import annotations

from collections.abc import Iterable

from .errors import ParseError
from .geometry import ALL_POSITIONS_MASK, HEART_SIZE
from .moves import _choose, _tap_stock, set_placement_help, tap, undo
from .state import State, new_game

Action = int | str
ACTION_WORDS = ("stock", "waste", "undo", "help-on", "help-off")
# Every valid action, mapped to the position it taps (1-25) or the word it stands for.
_ACTIONS: dict[object, int | str] = {word: word for word in ACTION_WORDS}
_ACTIONS.update({p: p for p in range(1, HEART_SIZE + 1)})
_ACTIONS.update({str(p): p for p in range(1, HEART_SIZE + 1)})


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


def replay(
    code: str | tuple[int, ...] | list[int],
    actions: Iterable[object],
    *,
    key: str | bytes | None = None,
) -> State:
    """The state reached by applying an action log to a deal (ParseError on a bad action;
    RuleError on an undo the rules refuse).

    >>> replay("HH1-N-AAAAAAM", []).moves
    0
    """
    state = new_game(code, key=key)
    actions_map = _ACTIONS
    for index, value in enumerate(actions):
        kind = type(value)
        action = actions_map.get(value) if kind is int or kind is str else None
        if action is None:
            raise ParseError(f"action {index}: not an action: {value!r}")
        state = _apply(state, action)
    return state


def _apply(state: State, action: int | str) -> State:
    """One parsed action; heart taps are inlined because replay speed is a server hot path."""
    if type(action) is int:
        pos = state.pos
        if pos[1] >> action & 1 and pos[0] != ALL_POSITIONS_MASK:
            return _choose(state, action, state.dealt[action])[0]
        return state
    if action == "stock":
        return _tap_stock(state)[0]
    if action == "undo":
        return undo(state)
    if action == "help-on" or action == "help-off":
        return set_placement_help(state, action == "help-on")
    return tap(state, action)[0]
