"""Replay: a game is its code plus its action log, so every state is rebuilt by this one call.

>>> state = replay("HH1-N-AAAAAAM", ["stock", "25", "waste", "undo", "help-off"])
>>> state.moves, state.undos, state.placement_help
(0, 1, False)
"""

from __future__ import annotations

from collections.abc import Iterable

from .errors import ParseError
from .moves import ACTION_WORDS, Action, parse_action, step
from .state import State, new_game

__all__ = ["ACTION_WORDS", "Action", "parse_action", "replay"]


def replay(
    code: str | tuple[int, ...] | list[int],
    actions: Iterable[object],
    *,
    key: str | bytes | None = None,
) -> State:
    """The state reached by applying an action log to a deal, one `step` per entry (ParseError
    naming the entry on a bad action; RuleError on an undo the rules refuse).

    >>> replay("HH1-N-AAAAAAM", []).moves
    0
    >>> replay("HH1-N-AAAAAAM", ["stock", "26"])
    Traceback (most recent call last):
    ...
    game.engine.errors.ParseError: action 1: not an action: '26'
    """
    state = new_game(code, key=key)
    for index, action in enumerate(actions):
        try:
            state = step(state, action)[0]
        except ParseError as error:
            raise ParseError(f"action {index}: {error}") from None
    return state
