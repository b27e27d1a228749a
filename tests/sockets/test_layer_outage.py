"""A player's own game goes on while the channel layer is down (a Redis stopped and started):
taps are answered and nothing waits on the layer; play sockets connect and, once it is back,
join their groups again, check their session and show the game as stored. Live boards and
spectators are closed or refused meanwhile (live_paused, 4013), so the promises carried by
group messages fail closed. tests/system/test_redis_outage.py does it with a real Redis."""

import asyncio
import json
import time
from pathlib import Path

import pytest
from channels.db import database_sync_to_async
from django.conf import settings
from django.test import AsyncClient
from prometheus_client import REGISTRY

from game.services.publish import publish, publish_on_commit
from game.sockets.base import CLOSE_FORBIDDEN, CLOSE_LIVE_PAUSED, CLOSE_LOGGED_OUT
from game.storage import channel_layer as layer
from tests import layers
from tests.site import connect, frame_of, resign, send, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)

CODE = "HH1-N-AAAAAAC"
WATCHED = "HH1-N-AAAAAAF"


@pytest.fixture(autouse=True)
def quick(settings):
    settings.TAP_RATE = 0


async def opened(cookie: str, code: str = CODE):
    return await layers.opened(cookie, code)


async def closed_with(socket, timeout: float = 3) -> tuple[str | None, int]:
    """(the error frame's code or None, the close code), past any frame before them."""
    error = None
    while (output := await socket.receive_output(timeout=timeout))["type"] != "websocket.close":
        frame = json.loads(output["text"])
        error = frame["error"] if frame["type"] == "error" else error
    return error, output["code"]


def errors_counted(op: str) -> float:
    return REGISTRY.get_sample_value("h2h_channel_layer_errors_total", {"op": op}) or 0.0


async def test_a_player_plays_on_while_the_layer_is_down_and_no_tap_waits_on_it(
    player_cookie, failing_layer
):
    tab, other = await opened(player_cookie), await opened(player_cookie)
    received = errors_counted("receive")
    failing_layer.stop()
    started = time.monotonic()
    for seq in range(1, 31):
        reply = await send(tab, {"type": "tap", "seq": seq, "target": "stock"})
        assert (reply["type"], reply["seq"]) == ("state", seq)  # a draw, or the redeal
    assert time.monotonic() - started < 2
    # The other tab's reader failed and the first publication: after that, one call each
    # layer.RETRY_S finds out whether the layer is back, not one each tap.
    assert failing_layer.calls <= 4 + 2 * (time.monotonic() - started) / layer.RETRY_S
    assert errors_counted("receive") > received
    assert await other.receive_nothing()
    for socket in (tab, other):
        await socket.disconnect()


async def test_a_play_socket_connects_while_the_layer_is_down_and_hears_again_once_it_is_back(
    player_cookie, failing_layer
):
    failing_layer.stop()
    tab, other = await opened(player_cookie), await opened(player_cookie)
    await send(other, {"type": "tap", "seq": 1, "target": "stock"})  # unheard by `tab`
    failing_layer.start()  # a restarted Redis: every group forgotten
    caught_up = await frame_of(tab, "state")  # the game as stored, once the layer is back
    assert "seq" not in caught_up and caught_up["game"]["last_seq"] == 1
    assert (await frame_of(other, "state"))["game"]["last_seq"] == 1
    reply = await send(other, {"type": "tap", "seq": 2, "target": "stock"})
    heard = await frame_of(tab, "state")  # the groups were joined again
    assert heard["event"] == "draw" and heard["view"] == reply["view"]
    for socket in (tab, other):
        await socket.disconnect()


async def test_a_session_that_logged_out_during_an_outage_closes_its_sockets_once_it_is_back(
    player, failing_layer
):
    cookie = await database_sync_to_async(session_cookie)(player)
    kept = await database_sync_to_async(session_cookie)(player)  # another device's session
    socket, other_device = await opened(cookie), await opened(kept)
    failing_layer.stop()
    client = AsyncClient()
    client.cookies.load(cookie)
    started = time.monotonic()
    assert (await client.post("/accounts/logout/")).status_code == 302  # never held up
    assert time.monotonic() - started < 1
    failing_layer.start()
    assert await closed_with(socket, timeout=2) == (None, CLOSE_LOGGED_OUT)
    assert (await frame_of(other_device, "state"))["type"] == "state"  # resumed, still open
    await socket.disconnect()
    await other_device.disconnect()


async def test_spectators_are_closed_and_refused_while_the_layer_is_down_and_checked_after(
    player, rival, failing_layer, monkeypatch
):
    monkeypatch.setattr(layer, "RETRY_S", 0.1)
    cookie = await database_sync_to_async(session_cookie)(player)
    game_id = await resign(rival, WATCHED)
    watcher = await connect(f"/ws/watch/{game_id}/", cookie)
    await frame_of(watcher, "state")
    failing_layer.stop()
    assert await closed_with(watcher) == ("live_paused", CLOSE_LIVE_PAUSED)
    refused = await connect(f"/ws/watch/{game_id}/", cookie)
    assert await closed_with(refused) == ("live_paused", CLOSE_LIVE_PAUSED)
    board = await opened(cookie, WATCHED)  # the spectator opens the deal they watched
    failing_layer.start()
    await asyncio.sleep(0.2)
    again = await connect(f"/ws/watch/{game_id}/", cookie)
    assert await closed_with(again) == ("playing_this_deal", CLOSE_FORBIDDEN)
    for socket in (watcher, refused, again, board):
        await socket.disconnect()


async def test_a_live_board_is_closed_while_the_layer_is_down_and_shows_it_once_back(
    failing_layer, monkeypatch
):
    monkeypatch.setattr(layer, "RETRY_S", 0.1)
    board = await connect("/ws/live/all-time/")
    await frame_of(board, "board")
    failing_layer.stop()
    assert await closed_with(board) == ("live_paused", CLOSE_LIVE_PAUSED)
    failing_layer.start()
    await asyncio.sleep(0.2)
    board = await connect("/ws/live/all-time/")
    assert (await frame_of(board, "board"))["type"] == "board"
    await board.disconnect()


async def test_a_publication_to_a_layer_that_never_answers_waits_a_second_at_most(
    failing_layer, monkeypatch
):
    async def never(group, message):
        await asyncio.Event().wait()

    monkeypatch.setattr(failing_layer, "group_send", never)
    started = time.monotonic()
    await publish("game.1", {"type": "game.watchers", "count": 1})
    assert time.monotonic() - started < layer.CALL_S + 0.5
    started = time.monotonic()
    for _ in range(100):  # the layer is down now: dropped at once
        await publish("game.1", {"type": "game.watchers", "count": 1})
    assert time.monotonic() - started < 0.1
    assert errors_counted("publish") >= 1


MALAY_CATALOG = Path(settings.BASE_DIR, "game", "locale", "ms", "LC_MESSAGES", "django.mo")


@pytest.mark.skipif(not MALAY_CATALOG.exists(), reason="run compilemessages (make test does)")
async def test_a_live_page_is_told_its_updates_are_paused_in_its_language(failing_layer):
    board = await connect("/ws/live/all-time/", "django_language=ms")
    await frame_of(board, "board")
    failing_layer.stop()
    paused = await frame_of(board, "error")
    assert paused["message"] == "Kemas kini langsung dijeda: menyambung semula sebentar lagi."
    await board.disconnect()


def test_a_write_publishing_to_a_layer_that_never_answers_is_held_a_second_at_most(
    failing_layer, monkeypatch
):
    async def never(group, message):
        await asyncio.Event().wait()

    monkeypatch.setattr(failing_layer, "group_send", never)
    started = time.monotonic()
    publish_on_commit("game.1", {"type": "game.watchers", "count": 1})  # no transaction: now
    assert time.monotonic() - started < layer.CALL_S + 0.5
    started = time.monotonic()
    for _ in range(100):
        publish_on_commit("game.1", {"type": "game.watchers", "count": 1})
    assert time.monotonic() - started < 0.5
