"""Heart to Heart's rules as a pure Python package: no Django, no I/O, immutable values.

A game is a deal code plus its actions; `step` applies one action and `replay` rebuilds any
state from them (docs/rules.md, "The engine").

>>> state = new_game("HH1-N-AAAAAAM")
>>> state, event = tap(state, 25)
>>> event, state.selected
(<Event.SELECTED: 'selected'>, 25)
>>> public_view(state)["selected"]
25
"""

from .codes import DEFAULT_DEAL_KEY, deal_for_code, format_code, parse_code, random_code
from .errors import EngineError, ParseError, RuleError
from .moves import StepEvent, parse_action, parse_target, set_placement_help, step, tap, undo
from .par import min_moves, min_moves_plan
from .replay import replay
from .solver import solve
from .state import (
    CARD_SCORE,
    MISMATCH_CODE,
    MISMATCH_REASON,
    UNDO_LIMIT,
    WIN_SCORE,
    Event,
    State,
    new_game,
)
from .view import (
    free_positions,
    hints,
    playable_targets,
    possible_pairs,
    public_view,
    table_layout,
)

__all__ = [
    "CARD_SCORE",
    "DEFAULT_DEAL_KEY",
    "MISMATCH_CODE",
    "MISMATCH_REASON",
    "UNDO_LIMIT",
    "WIN_SCORE",
    "EngineError",
    "Event",
    "ParseError",
    "RuleError",
    "State",
    "StepEvent",
    "deal_for_code",
    "format_code",
    "free_positions",
    "hints",
    "min_moves",
    "min_moves_plan",
    "new_game",
    "parse_action",
    "parse_code",
    "parse_target",
    "playable_targets",
    "possible_pairs",
    "public_view",
    "random_code",
    "replay",
    "set_placement_help",
    "solve",
    "step",
    "table_layout",
    "tap",
    "undo",
]
