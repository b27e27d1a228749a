"""Deal codes as the site takes them: a typed one read into its canonical form, or a fresh one
drawn for a new game or race."""

from django.conf import settings

from game import engine
from game.domain.errors import GameError


def code_parse(*, code: object) -> str:
    """The canonical code, or GameError("bad_code"): a sentence in the player's language on
    what a code looks like, where the engine's detail ("the seed must be 7 letters A-Z, not
    'BAD'") would be English and the parser's words."""
    try:
        return engine.parse_code(code)
    except engine.ParseError as error:
        raise GameError("bad_code") from error


FRESH_DRAWS = 50  # one deal in ten is dead, so fifty in a row never come: a bound on a fault


def code_fresh() -> str:
    """A random deal's code for a new game or race: one whose opening has a pair to make.
    About one random deal in ten is deadlocked before its first move; a code typed in is
    dealt as it is."""
    for _ in range(FRESH_DRAWS):
        code = engine.random_code()
        if not engine.new_game(code, key=settings.DEAL_KEY).deadlocked:
            break
    return code


def code_fresh_winnable() -> str:
    """A random deal's code that the solver wins (about one random deal in three), for racers
    who never chose it: one of them can clear the heart. The solver takes a fraction of a
    millisecond a deal."""
    for _ in range(FRESH_DRAWS):
        code = engine.random_code()
        if engine.solve(code, key=settings.DEAL_KEY):
            break
    return code
