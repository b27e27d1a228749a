"""A game's action log as it is written: the only truth about its board, read back by
game.selectors.log."""

from datetime import datetime

from django.utils import timezone

from game.models import Action, Game


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
