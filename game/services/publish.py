"""Publishing to a group: after the write commits, and never at the cost of the write.

Every publication is best effort (game.storage.channel_layer): while the channel layer is down it is
dropped at once, and one that fails or is not answered within layer.CALL_S is logged, counted
and dropped. Whoever missed it resynchronises by version when the layer is back.
"""

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

from game.services.groups import game_group, spectator_group
from game.storage.channel_layer import on_layer


def publish_on_commit(group: str, message: dict) -> None:
    """Send `message` to `group` once the current transaction commits (at once outside one).

    A channel-layer outage never undoes or fails a committed write, nor holds up its request
    for longer than layer.CALL_S.
    """
    layer = get_channel_layer()
    if layer is not None:
        send = async_to_sync(_send)
        transaction.on_commit(lambda: send(layer, group, message), robust=True)


def send_on_commit(channel: str, message: dict) -> None:
    """Send `message` to one socket's channel (on whichever process holds it) once the current
    transaction commits, as publish_on_commit does for a group."""
    layer = get_channel_layer()
    if layer is not None:
        send = async_to_sync(_send_to_channel)
        transaction.on_commit(lambda: send(layer, channel, message), robust=True)


async def _send_to_channel(layer, channel: str, message: dict) -> None:
    await on_layer("publish", lambda: layer.send(channel, message), layer=layer)


async def publish(group: str, message: dict) -> None:
    """Send `message` to `group` now, from async code."""
    layer = get_channel_layer()
    if layer is not None:
        await _send(layer, group, message)


async def _send(layer, group: str, message: dict) -> None:
    await on_layer("publish", lambda: layer.group_send(group, message), layer=layer)


def game_publish(*, game_id: int, event: str, snapshot: dict, origin: str) -> None:
    """Send a game's new state to its group (the player's other tabs, its spectators) once the
    transaction commits.

    `origin` is the sending socket's channel name: that socket already has its reply.
    """
    message = {"type": "game.state", "origin": origin, "event": str(event), **snapshot}
    publish_on_commit(game_group(game_id=game_id), message)


def spectator_opened_deal(*, player_id: int, code: str) -> None:
    """After commit: the player's watch sockets on games of `code` close (playing_this_deal).

    Each watch socket of a logged-in spectator listens to its user's spectator group; whatever
    opens a game of a deal for a player, or enters them in a race of it, calls this, and the
    channel layer carries the word to the sockets on every server process."""
    message = {"type": "spectator.opened_deal", "code": code}
    publish_on_commit(spectator_group(player_id=player_id), message)
