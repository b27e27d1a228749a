"""Deal codes, as typed and as drawn fresh, and a game's action log as it is written: the only
truth about its board, read back by game.selectors.log."""

from datetime import datetime

from django.conf import settings
from django.utils import timezone

from game import engine
from game.models import Action, Game
from game.services.errors import GameError


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


def game_log_append(*, game: Game, actions: list, seq: int | None) -> datetime:
    """Store actions at the end of the log and remember the seq that carried them."""
    now = timezone.now()
    Action.objects.bulk_create(
        Action(game=game, index=game.action_count + i, action=str(action), at=now)
        for i, action in enumerate(actions)
    )
    game.action_count += len(actions)
    game.last_seq = seq if seq is not None else game.last_seq
    game.save(update_fields=["action_count", "last_seq"])
    return now
