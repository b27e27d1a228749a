"""Publishing to a group: after the write commits, and never at the cost of the write."""

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction


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
