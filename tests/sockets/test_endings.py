"""A socket gives back its place in its count whichever way it ends (game.sockets.base): a
refused or failed handshake, a group join that raises, a channel-layer failure, a handler that
raises, a close by the server. Each way is taken ten times, twice the cap of five play
sockets a player may hold on one process: one place kept each time would lock the player out."""

import json

import pytest
from autobahn.exception import Disconnected
from channels.db import database_sync_to_async
from django.db import OperationalError
from django.test import AsyncClient

import h2h_site.asgi
from game import services
from game.runtime import open_games
from game.sockets import public
from game.sockets.base import (
    CLOSE_LIVE_PAUSED,
    CLOSE_LOGGED_OUT,
    CLOSE_NOT_FOUND,
    CLOSE_SERVER_ERROR,
)
from game.sockets.play import PlayConsumer, play_sockets
from game.storage import channel_layer as layer
from tests import layers
from tests.site import (
    connect,
    frame_of,
    open_socket,
    resign,
    send,
    session_cookie,
    sockets_database_work_done,
)

pytestmark = pytest.mark.django_db(transaction=True)

CODE = "HH1-N-AAAAAAC"
TIMES = 10


@pytest.fixture(autouse=True)
def quick(settings):
    settings.TAP_RATE = 0


async def opened(cookie: str, code: str = CODE):
    return await layers.opened(cookie, code)


async def ending(socket) -> tuple[str | None, int]:
    """(the last error frame's code or None, the close code) as the server ends the socket;
    then the client's side of the close, as daphne delivers it."""
    error = None
    while (output := await socket.receive_output(timeout=3))["type"] != "websocket.close":
        frame = json.loads(output["text"])
        if frame["type"] == "error":
            error = frame["error"]
    await socket.disconnect(code=output["code"])
    return error, output["code"]


async def the_player_connects_again(cookie: str) -> None:
    """No place is held, and the player opens all five of their sockets at once."""
    await sockets_database_work_done()
    assert play_sockets.total() == 0
    sockets = [await opened(cookie) for _ in range(5)]
    for socket in sockets:
        await socket.disconnect()


async def test_a_refused_handshake_gives_back_its_place(player_cookie):
    for _ in range(TIMES):
        socket = await open_socket(h2h_site.asgi.application, "HH1-X-NOPE", player_cookie)
        assert await ending(socket) == ("bad_code", CLOSE_NOT_FOUND)
    await the_player_connects_again(player_cookie)


async def test_a_handshake_the_storage_fails_gives_back_its_place(player_cookie, monkeypatch):
    async def storage_down(**kwargs):
        raise OperationalError("the database is down")

    monkeypatch.setattr(open_games, "_load", storage_down)
    for _ in range(TIMES):
        socket = await open_socket(h2h_site.asgi.application, CODE, player_cookie)
        assert socket.connected  # accepted only to say why, as any refusal
        assert await ending(socket) == ("server_error", CLOSE_SERVER_ERROR)
    monkeypatch.undo()
    await the_player_connects_again(player_cookie)


async def test_a_socket_whose_group_join_raises_plays_and_gives_back_its_place(
    player_cookie, failing_layer
):
    failing_layer.stop()
    for seq in range(1, TIMES + 1):
        socket = await opened(player_cookie)
        assert (await send(socket, {"type": "tap", "seq": seq, "target": "stock"}))["seq"] == seq
        await socket.disconnect()
    failing_layer.start()
    await the_player_connects_again(player_cookie)


async def test_a_socket_whose_channel_layer_fails_gives_back_its_place(
    player_cookie, failing_layer
):
    for seq in range(1, TIMES + 1):
        socket = await opened(player_cookie)
        failing_layer.stop()
        assert (await send(socket, {"type": "tap", "seq": seq, "target": "stock"}))["seq"] == seq
        await socket.disconnect()
        failing_layer.start()
    await the_player_connects_again(player_cookie)


async def test_a_public_socket_closed_by_a_failing_layer_gives_back_its_place(
    player, rival, failing_layer, monkeypatch
):
    monkeypatch.setattr(layer, "RETRY_S", 0)  # a started layer is tried again at once
    cookie = await database_sync_to_async(session_cookie)(player)
    game_id = await resign(rival, "HH1-N-AAAAAAD")
    for _ in range(TIMES):
        watcher = await connect(f"/ws/watch/{game_id}/", cookie)
        await frame_of(watcher, "state")
        failing_layer.stop()
        assert await ending(watcher) == ("live_paused", CLOSE_LIVE_PAUSED)
        failing_layer.start()
    await sockets_database_work_done()
    assert public.per_user.total() == 0


async def test_a_frame_whose_handler_raises_gives_back_its_place(player_cookie, monkeypatch):
    async def broken(*args, **kwargs):
        raise RuntimeError("a fault of the code")

    monkeypatch.setattr(services, "game_tap", broken)
    for _ in range(TIMES):
        socket = await opened(player_cookie)
        await socket.send_json_to({"type": "tap", "seq": 1, "target": "stock"})
        assert await ending(socket) == ("server_error", CLOSE_SERVER_ERROR)
    monkeypatch.undo()
    await the_player_connects_again(player_cookie)


async def test_a_channel_message_whose_handler_raises_closes_with_a_code_and_gives_back_its_place(
    player_cookie, monkeypatch
):
    async def broken(self, message):
        if message["origin"] != self.channel_name:  # the tab that moved passes over its own
            raise RuntimeError("a fault of the code")

    monkeypatch.setattr(PlayConsumer, "game_state", broken)
    other = await opened(player_cookie)
    for seq in range(1, TIMES + 1):
        socket = await opened(player_cookie)
        await send(other, {"type": "tap", "seq": seq, "target": "stock"})
        assert await ending(socket) == ("server_error", CLOSE_SERVER_ERROR)  # never 1011
    await other.disconnect()
    monkeypatch.undo()
    await the_player_connects_again(player_cookie)


async def test_a_frame_sent_to_a_client_already_gone_ends_its_socket_quietly(
    player_cookie, monkeypatch, caplog
):
    async def gone(self, message):
        if message["origin"] != self.channel_name:
            raise Disconnected("Attempt to send on a closed protocol")  # as daphne says it

    monkeypatch.setattr(PlayConsumer, "game_state", gone)
    other = await opened(player_cookie)
    for seq in range(1, TIMES + 1):
        socket = await opened(player_cookie)
        await send(other, {"type": "tap", "seq": seq, "target": "stock"})
        await socket.wait(timeout=3)  # its life is over, with no close sent to nobody
    await other.disconnect()
    monkeypatch.undo()
    assert "socket failed" not in caplog.text
    await the_player_connects_again(player_cookie)


async def test_a_socket_the_server_closes_gives_back_its_place(player):
    for _ in range(TIMES):
        cookie = await database_sync_to_async(session_cookie)(player)
        socket = await opened(cookie)
        await sockets_database_work_done()  # its presence row, before the logout's write
        client = AsyncClient()
        client.cookies.load(cookie)
        assert (await client.post("/accounts/logout/")).status_code == 302
        assert await ending(socket) == (None, CLOSE_LOGGED_OUT)
    await the_player_connects_again(await database_sync_to_async(session_cookie)(player))
