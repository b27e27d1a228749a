"""Publishing to a group: after the write commits, and never at the cost of the write."""

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

from game.services.groups import game_group


def publish_on_commit(group: str, message: dict) -> None:
    """Send `message` to `group` once the current transaction commits (at once outside one).

    robust: a channel-layer outage is logged and must not undo or fail a committed write.
    """
    layer = get_channel_layer()
    if layer is not None:
        transaction.on_commit(lambda: async_to_sync(layer.group_send)(group, message), robust=True)


async def publish(group: str, message: dict) -> None:
    """Send `message` to `group` now, from async code."""
    layer = get_channel_layer()
    if layer is not None:
        await layer.group_send(group, message)


def game_publish(*, game_id: int, event: str, snapshot: dict, origin: str) -> None:
    """Send a game's new state to its group (the player's other tabs, its spectators) once the
    transaction commits.

    `origin` is the sending socket's channel name: that socket already has its reply.
    """
    message = {"type": "game.state", "origin": origin, "event": str(event), **snapshot}
    publish_on_commit(game_group(game_id=game_id), message)
