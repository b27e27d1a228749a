"""Helpers of the realtime tests: sockets on any path, and games finished through the services."""

import pytest
from channels.db import database_sync_to_async
from channels.layers import channel_layers
from channels.testing import WebsocketCommunicator
from django.utils import timezone

from game import services
from game.models import RaceEntry, RaceRoom
from game.services import races
from h2h_site.asgi import application
from tests.site import ORIGIN


@pytest.fixture(autouse=True)
def fresh_channel_layer():
    """A channel layer of the test's own (import this fixture into a test module to use it).

    Every async test runs on an event loop of its own, and the Redis layer keeps asyncio locks
    bound to the loop that first waited on them.
    """
    channel_layers.backends.clear()
    yield
    channel_layers.backends.clear()


async def connect(path: str, cookie: str | None = None) -> WebsocketCommunicator:
    """A connected communicator on `path`, past nothing yet."""
    headers = [(b"origin", ORIGIN), (b"host", b"testserver")]
    if cookie:
        headers.append((b"cookie", cookie.encode()))
    socket = WebsocketCommunicator(application, path, headers=headers)
    connected, _ = await socket.connect()
    assert connected, path
    return socket


async def frame_of(socket, kind: str, timeout: float = 5) -> dict:
    """The next frame of type `kind`, skipping others (e.g. presence between board frames)."""
    while True:
        frame = await socket.receive_json_from(timeout=timeout)
        if frame["type"] == kind:
            return frame


def resign_now(player, code: str) -> int:
    """Open the player's game of `code` and resign it at once: a result, committed. Its id."""
    game = services.game_open(player=player, code=code)
    services.game_resign(game=services.LockedGame(game.pk), player=player)
    return game.pk


resign = database_sync_to_async(resign_now)  # the same, from a socket test's event loop


@database_sync_to_async
def play(player, game_id: int, actions, first_seq: int = 1) -> None:
    """Tap `actions` on the player's game through the services, one transaction each."""
    selected = None  # a selection lives in the socket's memory: carry it from tap to tap
    for seq, action in enumerate(actions, start=first_seq):
        reply = services.game_tap(
            game=services.LockedGame(game_id),
            player=player,
            seq=seq,
            target=action,
            selected=selected,
        )
        selected = reply.state.selected


@database_sync_to_async
def started_race(*players, code: str) -> tuple[str, dict[str, int]]:
    """A race of `code` between `players` (the first creates it), begun now: its room code,
    and each racer's username with their race game's id."""
    room = races.race_create(player=players[0], code=code)
    for player in players[1:]:
        races.race_join(player=player, room=room.room)
    for player in players:
        races.race_ready(player=player, room=room.room, ready=True)
    RaceRoom.objects.filter(pk=room.pk).update(starts_at=timezone.now())
    races.race_begin_if_due(room=room.room)
    entries = RaceEntry.objects.filter(room=room).select_related("player")
    return room.room, {entry.player.username: entry.game_id for entry in entries}
