"""A move the database cannot take now is answered `storage_unavailable`, the socket stays open,
and the same seq sent again once the database writes again is stored once; any other failure of
a handler is `server_error` and a close the board reconnects after, never 1011."""

import pytest
from channels.db import database_sync_to_async
from django.db import OperationalError

from game import services
from game.services import races
from game.sockets.base import CLOSE_SERVER_ERROR
from game.sockets.boards import BoardConsumer
from game.storage import dbthread
from tests import faults
from tests.layers import fresh_channel_layer  # noqa: F401  (an autouse fixture)
from tests.site import connect, frame_of, game_log, greeted, send, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)
read_only_storage = faults.read_only_storage

CODE = "HH1-N-AAAAAAC"


def draw(seq: int) -> dict:
    return {"type": "tap", "seq": seq, "target": "stock"}


async def close_code(socket) -> int:
    while (output := await socket.receive_output(timeout=2))["type"] != "websocket.close":
        pass
    return output["code"]


async def test_a_move_on_a_read_only_database_is_not_stored_and_its_seq_is_taken_again(
    player_cookie, read_only_storage
):
    socket, first = await greeted(player_cookie, CODE)
    assert (await send(socket, draw(1)))["event"] == "draw"
    read_only_storage.refuse()
    refused = await send(socket, draw(2))
    assert (refused["type"], refused["seq"], refused["error"]) == (
        "error",
        2,
        "storage_unavailable",
    )
    assert refused["message"].startswith("Not stored")
    assert (await send(socket, draw(2)))["error"] == "storage_unavailable"  # still open
    read_only_storage.accept()
    stored = await send(socket, draw(2))
    assert (stored["seq"], stored["event"], stored["game"]["last_seq"]) == (2, "draw", 2)
    assert (await send(socket, draw(2)))["error"] == "duplicate_seq"
    assert await game_log(first["game"]["id"]) == (2, 2, ["stock", "stock"])
    await socket.disconnect()


async def test_a_last_move_the_database_refuses_ends_the_game_once_it_is_sent_again(
    player, read_only_storage
):
    socket, first = await greeted(await database_sync_to_async(session_cookie)(player, "ms"), CODE)
    read_only_storage.refuse()
    refused = await send(socket, {"type": "resign", "seq": 1})
    assert refused["error"] == "storage_unavailable" and "disimpan" in refused["message"]
    read_only_storage.accept()
    resigned = await send(socket, {"type": "resign", "seq": 1})
    assert resigned["event"] == "resign" and resigned["game"]["status"] == "resigned"
    assert resigned["game"]["result"]["won"] is False
    assert await game_log(first["game"]["id"]) == (1, 0, [])
    await socket.disconnect()


async def test_a_frame_answered_after_the_refused_one_uses_up_its_seq(
    player_cookie, read_only_storage
):
    socket, first = await greeted(player_cookie, CODE)
    read_only_storage.refuse()
    assert (await send(socket, draw(1)))["error"] == "storage_unavailable"
    read_only_storage.accept()
    assert (await send(socket, draw(2)))["seq"] == 2  # the client numbered on meanwhile
    assert (await send(socket, draw(1)))["error"] == "duplicate_seq"
    assert await game_log(first["game"]["id"]) == (2, 1, ["stock"])
    await socket.disconnect()


async def test_a_move_stored_although_its_commit_failed_is_shown_when_it_is_sent_again(
    player_cookie, monkeypatch
):
    store = dbthread._store

    def stored_then_lost(moves):
        store(moves)
        monkeypatch.setattr(dbthread, "_store", store)
        raise OperationalError("server closed the connection unexpectedly")

    socket, first = await greeted(player_cookie, CODE)
    monkeypatch.setattr(dbthread, "_store", stored_then_lost)
    assert (await send(socket, draw(1)))["error"] == "storage_unavailable"
    assert (await send(socket, draw(1)))["error"] == "duplicate_seq"
    shown, waste = await frame_of(socket, "state"), first["view"]["waste"]["size"]
    assert "seq" not in shown and shown["game"]["last_seq"] == 1
    assert shown["view"]["waste"]["size"] == waste + 1  # the draw stored, shown once
    assert (await send(socket, draw(2)))["view"]["waste"]["size"] == waste + 2
    assert await game_log(first["game"]["id"]) == (2, 2, ["stock", "stock"])
    await socket.disconnect()


async def test_a_race_socket_whose_write_is_refused_says_so_and_stays_open(
    player, player_cookie, read_only_storage
):
    room = await database_sync_to_async(races.race_create)(player=player, code="")
    socket = await connect(f"/ws/race/{room.room}/", player_cookie)
    assert (await frame_of(socket, "room"))["entries"][0]["ready"] is False
    read_only_storage.refuse()
    await socket.send_json_to({"type": "ready", "ready": True})
    refused = await socket.receive_json_from()
    assert list(refused) == ["type", "error", "message"]
    assert refused["error"] == "storage_unavailable"
    read_only_storage.accept()
    await socket.send_json_to({"type": "ready", "ready": True})
    assert (await frame_of(socket, "room"))["entries"][0]["ready"] is True
    await socket.disconnect()


async def broken(*args, **kwargs):
    raise RuntimeError("a bug")


async def test_a_play_handler_that_fails_is_answered_server_error_and_closed_to_reconnect(
    player_cookie, monkeypatch
):
    socket, first = await greeted(player_cookie, CODE)
    monkeypatch.setattr(services, "game_tap", broken)
    failed = await send(socket, draw(1))
    assert (failed["type"], failed["seq"], failed["error"]) == ("error", 1, "server_error")
    assert failed["message"]
    assert await close_code(socket) == CLOSE_SERVER_ERROR
    monkeypatch.undo()
    socket, again = await greeted(player_cookie, CODE)  # reconnected: the game goes on
    assert again["game"]["id"] == first["game"]["id"]
    assert (await send(socket, draw(1)))["event"] == "draw"
    await socket.disconnect()


async def test_a_public_socket_handler_that_fails_is_answered_server_error_and_closed_to_reconnect(
    monkeypatch,
):
    socket = await connect("/ws/live/all-time/")
    await frame_of(socket, "board")
    monkeypatch.setattr(BoardConsumer, "resync", broken)
    await socket.send_json_to({"type": "sync"})
    failed = await frame_of(socket, "error")
    assert list(failed) == ["type", "error", "message"] and failed["error"] == "server_error"
    assert await close_code(socket) == CLOSE_SERVER_ERROR
