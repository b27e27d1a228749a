"""Telling a game's other listeners (the player's other tabs) after the write is committed."""

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

from game.services.groups import game_group


def game_publish(*, game_id: int, event: str, snapshot: dict, origin: str) -> None:
    """Send the new state to the game's group once the transaction commits.

    `origin` is the sending socket's channel name: that socket already has its reply.
    """
    layer = get_channel_layer()
    if layer is None:
        return
    message = {"type": "game.state", "origin": origin, "event": str(event), **snapshot}
    group = game_group(game_id=game_id)
    # robust: a layer outage must not turn a stored, committed move into an error reply.
    transaction.on_commit(lambda: async_to_sync(layer.group_send)(group, message), robust=True)
