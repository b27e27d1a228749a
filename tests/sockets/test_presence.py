"""Presence over the sockets: "N playing now" counts open play sockets, and the home page and
today's board hear it change (the rows: tests/services/test_presence.py; the counts:
tests/selectors/test_presence.py; the process's batches: tests/runtime/test_presence.py)."""

import asyncio

import pytest
from channels.db import database_sync_to_async

import h2h_site.asgi
from game.models import Presence
from game.runtime import presence
from game.selectors import daily
from game.services.daily import daily_deal
from game.storage.db import db
from tests.layers import fresh_channel_layer  # noqa: F401  (an autouse fixture)
from tests.site import connect, frame_of, open_socket

pytestmark = pytest.mark.django_db(transaction=True)

CODE = "HH1-N-AAAAAAC"


async def playing_count(socket) -> int:
    return (await frame_of(socket, "presence"))["playing"]


async def test_the_home_page_hears_players_come_and_go(player_cookie, rival_cookie):
    home = await connect("/ws/live/home/")
    assert await playing_count(home) == 0
    ann = await open_socket(h2h_site.asgi.application, CODE, player_cookie)
    assert await playing_count(home) == 1
    ann_tab = await open_socket(h2h_site.asgi.application, CODE, player_cookie)
    assert await playing_count(home) == 1  # one player, two tabs
    bea = await open_socket(h2h_site.asgi.application, CODE, rival_cookie)
    assert await playing_count(home) == 2
    for socket in (ann, ann_tab):
        await socket.disconnect()
    counts = [await playing_count(home) for _ in range(2)]
    assert counts[-1] == 1
    await bea.disconnect()
    assert await playing_count(home) == 0
    await home.disconnect()


async def test_the_counts_are_made_only_for_someone_to_hear_them(player_cookie, monkeypatch):
    made, snapshot = [], presence.presence_snapshot
    monkeypatch.setattr(presence, "presence_snapshot", lambda: made.append(1) or snapshot())
    ann = await open_socket(h2h_site.asgi.application, CODE, player_cookie)
    for _ in range(200):  # the row is written after the socket's first frame, on the worker
        if await db(Presence.objects.count)():  # that writes it: no table locked meanwhile
            break
        await asyncio.sleep(0.01)
    assert made == []  # written, and nobody listens: no counts
    home = await connect("/ws/live/home/")
    assert await playing_count(home) == 1  # a board counts afresh when it opens
    await ann.disconnect()
    assert await playing_count(home) == 0  # now someone listens: counted and heard
    assert len(made) == 1
    await home.disconnect()


@database_sync_to_async
def todays_code() -> str:
    return daily_deal().code


async def test_todays_board_names_who_plays_todays_deal_with_a_watch_link(
    player_cookie, rival_cookie
):
    code = await todays_code()
    board = await connect(f"/ws/live/daily/{daily.daily_today().isoformat()}/")
    await frame_of(board, "board")
    assert (await frame_of(board, "presence"))["daily"] == []
    ann = await open_socket(h2h_site.asgi.application, code, player_cookie)
    game_id = (await ann.receive_json_from())["game"]["id"]
    frame = await frame_of(board, "presence")
    assert frame["daily"] == [{"player": "Ann", "watch_url": f"/watch/{game_id}/"}]
    assert (frame["playing"], frame["daily_playing"]) == (1, 1)
    bea = await open_socket(h2h_site.asgi.application, CODE, rival_cookie)  # another deal
    frame = await frame_of(board, "presence")
    assert (frame["playing"], frame["daily_playing"]) == (2, 1)
    for socket in (ann, bea, board):
        await socket.disconnect()


async def test_a_past_days_board_and_a_deal_board_show_no_presence():
    for path in ("/ws/live/daily/2024-01-01/", f"/ws/live/deal/{CODE}/", "/ws/live/all-time/"):
        socket = await connect(path)
        assert (await socket.receive_json_from())["type"] == "board"
        assert await socket.receive_nothing()
        await socket.disconnect()


async def test_a_sync_on_the_home_socket_answers_with_the_counts_and_keeps_it_open():
    home = await connect("/ws/live/home/")
    await frame_of(home, "presence")
    await home.send_json_to({"type": "sync"})
    assert (await frame_of(home, "presence"))["playing"] == 0
    await home.send_json_to({"type": "sync"})
    assert (await home.receive_json_from())["type"] == "presence"
    await home.disconnect()
