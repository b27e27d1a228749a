"""The engine's two typed errors: malformed input versus a move the rules refuse."""


class EngineError(Exception):
    """Base of the engine's errors, so callers can catch both kinds at once."""


class ParseError(EngineError, ValueError):
    """Malformed input: a bad deal code, target, action or deal. The message names the problem."""


class RuleError(EngineError):
    """Well-formed input the rules do not allow now (undo with nothing to undo, or after a win)."""
