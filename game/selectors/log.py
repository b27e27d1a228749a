"""A game's stored action log read back: its state now, replayed through the engine."""

from django.conf import settings

from game import engine
from game.models import Game


def game_replay(*, game: Game) -> engine.State:
    """The game's state now: its stored log replayed under this deployment's deal key."""
    actions = []
    if game.action_count:  # a fresh game needs no query
        actions = list(game.actions.order_by("index").values_list("action", flat=True))
    return engine.replay(game.code, actions, key=settings.DEAL_KEY)
