"""The one base of every socket (game.sockets.base): each of the play, board, watch and race sockets
decodes, limits, refuses and closes alike, attacked over the real ASGI application."""

import ast
import asyncio
import time
from pathlib import Path

import pytest
from channels.db import database_sync_to_async
from django.test import AsyncClient

from game import engine
from game.services import races
from game.sockets.base import CLOSE_LOGGED_OUT
from tests.layers import fresh_channel_layer  # noqa: F401  (an autouse fixture)
from tests.site import connect, resign, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)

CODE = "HH1-N-AAAAAAC"
WATCHED = engine.format_code("N", 5)  # another deal: nobody watches a deal they play
GREETING = {"play": "state", "board": "board", "watch": "state", "race": "room"}
PUBLIC = ["board", "watch", "race"]


@pytest.fixture
def paths(player, rival):
    """Each kind of socket's path: the player's game, a board, the rival's game, a room."""
    return {
        "play": f"/ws/play/{CODE}/",
        "board": "/ws/live/all-time/",
        "watch": f"/ws/watch/{resign.func(rival, WATCHED)}/",
        "race": f"/ws/race/{races.race_create(player=player, code='').room}/",
    }


async def reply(socket) -> dict:
    """The next frame but a spectator count, which comes whenever someone starts watching."""
    while (frame := await socket.receive_json_from())["type"] == "watchers":
        pass
    return frame


async def close_code(socket) -> int:
    """The code the socket closes with, within 2 s, past any frame still on its way."""
    while (output := await socket.receive_output(timeout=2))["type"] != "websocket.close":
        pass
    return output["code"]


async def greeted(kind: str, paths: dict, cookie: str):
    """A socket of `kind`, logged in with `cookie`, past its greeting."""
    socket = await connect(paths[kind], cookie)
    assert (await reply(socket))["type"] == GREETING[kind]
    return socket


def asking(kind: str, seq: int) -> dict:
    """A frame the socket answers with a frame of its greeting's type."""
    if kind == "play":
        return {"type": "tap", "seq": seq, "target": "stock"}
    return {"type": "sync"}


async def answers(socket, kind: str, seq: int = 1) -> bool:
    """Whether the socket still answers a good frame as it should."""
    await socket.send_json_to(asking(kind, seq))
    return (await reply(socket))["type"] == GREETING[kind]


HOSTILE = [
    ({"bytes_data": b'{"type": "sync"}'}, "binary"),
    ({"text_data": '{"type": "sync", "pad": "' + "é" * 600 + '"}'}, "too_large"),
    ({"text_data": "[" * 1000}, "bad_json"),
    ({"text_data": '["sync"]'}, "bad_frame"),
]


@pytest.mark.parametrize("kind", GREETING)
@pytest.mark.parametrize(("message", "error"), HOSTILE)
async def test_every_socket_answers_a_hostile_frame_with_its_error_and_stays_open(
    kind, message, error, paths, player_cookie
):
    socket = await greeted(kind, paths, player_cookie)
    await socket.send_to(**message)
    frame = await reply(socket)
    assert (frame["type"], frame["error"]) == ("error", error) and frame["message"]
    assert await answers(socket, kind)
    await socket.disconnect()


@pytest.mark.parametrize("kind", GREETING)
async def test_only_the_play_sockets_error_frames_carry_a_seq(kind, paths, player_cookie):
    socket = await greeted(kind, paths, player_cookie)
    await socket.send_to(text_data="{")
    keys = ["type", "seq", "error", "message"] if kind == "play" else ["type", "error", "message"]
    assert list(await reply(socket)) == keys
    await socket.disconnect()


@pytest.mark.parametrize("kind", PUBLIC)
async def test_a_public_socket_that_floods_is_only_told_to_slow_down(kind, paths, player_cookie):
    socket = await greeted(kind, paths, player_cookie)
    started = time.monotonic()
    for _ in range(60):
        await socket.send_json_to({"type": "sync"})
    replies = [await reply(socket) for _ in range(60)]
    refill = int((time.monotonic() - started) * 5) + 1
    answered = [frame for frame in replies if frame["type"] == GREETING[kind]]
    refused = [frame["error"] for frame in replies if frame["type"] == "error"]
    assert 20 <= len(answered) <= 20 + refill and refused == ["rate_limited"] * (60 - len(answered))
    await asyncio.sleep(0.3)  # refilled at 5 a second: still open, and answering again
    assert await answers(socket, kind)
    await socket.disconnect()


@pytest.mark.parametrize("kind", PUBLIC)
async def test_a_frame_whose_type_is_not_a_string_is_an_unknown_frame(kind, paths, player_cookie):
    socket = await greeted(kind, paths, player_cookie)
    await socket.send_json_to({"type": ["sync"]})
    assert (await reply(socket))["error"] == "unknown_frame"
    assert await answers(socket, kind)
    await socket.disconnect()


async def test_logging_out_closes_the_sessions_play_watch_and_race_sockets_but_no_board(
    player, paths
):
    cookie = await database_sync_to_async(session_cookie)(player)
    sockets = {kind: await greeted(kind, paths, cookie) for kind in GREETING}
    client = AsyncClient()
    client.cookies.load(cookie)
    assert (await client.post("/accounts/logout/")).status_code == 302
    for kind in ("play", "watch", "race"):
        assert await close_code(sockets[kind]) == CLOSE_LOGGED_OUT
    assert await answers(sockets["board"], "board")  # a board is public
    for socket in sockets.values():
        await socket.disconnect()


def test_every_close_code_is_numbered_in_game_sockets_alone():
    game = Path(__file__).resolve().parents[2] / "game"
    numbered = {
        (path.relative_to(game).as_posix(), node.value)
        for path in game.rglob("*.py")
        if not {"migrations", "engine"} & set(path.parts)  # the engine knows of no socket
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.Constant) and type(node.value) is int
        if 4000 <= node.value < 5000
    }
    assert {code for _, code in numbered} == {4001, 4003, 4004, 4008, 4009, 4013, 4500}
    assert {path for path, _ in numbered} == {"sockets/base.py"}
