"""Presence: "N playing now" counts open play sockets in the database, so every process agrees;
the home page and today's board hear it change; a dead process's rows stop counting."""

import asyncio
import datetime

import pytest
import time_machine
from channels.db import database_sync_to_async
from django.utils import timezone

import h2h_site.asgi
from game import daily, services
from game.models import Game, Presence
from game.selectors.abandoned import ABANDONED_AFTER
from game.services import presence
from tests.realtime import connect, frame_of, fresh_channel_layer  # noqa: F401  (the fixture)
from tests.site import open_socket

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
    for _ in range(200):  # the row is written after the socket's first frame
        if await database_sync_to_async(Presence.objects.count)():
            break
        await asyncio.sleep(0.01)
    assert made == []  # written, and nobody listens: no counts
    home = await connect("/ws/live/home/")
    assert await playing_count(home) == 1  # a board counts afresh when it opens
    await ann.disconnect()
    assert await playing_count(home) == 0  # now someone listens: counted and heard
    assert len(made) == 2
    await home.disconnect()


@database_sync_to_async
def todays_code() -> str:
    return daily.daily_deal().code


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


def test_a_process_that_stopped_beating_stops_counting(player, rival, db):
    game = services.game_open(player=player, code=CODE)
    other = services.game_open(player=rival, code=CODE)
    presence.presence_enter(channel="here", kind="play", user_id=player.pk, game_id=game.pk)
    presence.presence_enter(channel="dead", kind="play", user_id=rival.pk, game_id=other.pk)
    Presence.objects.filter(channel="dead").update(
        process="gone", seen_at=timezone.now() - 2 * presence.STALE_AFTER
    )
    assert presence.playing_now() == 1
    Presence.objects.filter(channel="here").update(
        seen_at=timezone.now() - presence.STALE_AFTER / 2
    )
    assert presence.presence_beat() == 1  # the dead row is swept, this process's row refreshed
    assert list(Presence.objects.values_list("channel", flat=True)) == ["here"]
    assert Presence.objects.get().seen_at > timezone.now() - presence.STALE_AFTER / 4


def test_a_board_left_open_a_day_on_a_game_not_moved_since_is_not_playing_now(
    player, rival, make_player, db
):
    with time_machine.travel(timezone.now() - ABANDONED_AFTER, tick=False) as clock:
        left = services.game_open(player=player, code=CODE)
        moved = services.game_open(player=rival, code=CODE)
        clock.shift(datetime.timedelta(hours=1))
        services.game_tap(player=rival, game_id=moved.pk, seq=1, target="stock")
    waiting = Game.objects.create(player=make_player("cai"), code="HH1-D-AAAAAAB", ranked=True)
    for channel, game in (("left", left), ("moved", moved), ("waiting", waiting)):
        presence.presence_enter(
            channel=channel, kind="play", user_id=game.player_id, game_id=game.pk
        )
    assert presence.playing_now() == 2  # the rival's board, and one on the start screen
    services.game_tap(player=player, game_id=left.pk, seq=1, target="stock")
    assert presence.playing_now() == 3  # back to it: playing again


def test_a_play_socket_that_closes_before_its_row_is_written_costs_no_write():
    rows = presence._PlayRows()
    rows.enter("brief", {"kind": "play", "user_id": 1, "game_id": 1})
    rows.enter("stays", {"kind": "play", "user_id": 2, "game_id": 2})
    rows.leave("brief")
    rows.leave("written-earlier")
    entered, left = rows.take()
    assert [row["channel"] for row in entered] == ["stays"]
    assert left == ["written-earlier"]
    assert rows.take() == ([], [])


def test_a_failed_presence_write_is_retried_with_the_next_change():
    rows = presence._PlayRows()
    rows.enter("a", {"kind": "play", "user_id": 1, "game_id": 1})
    rows.leave("gone")
    entered, left = rows.take()
    rows.give_back(entered, left)
    rows.leave("later")
    entered, left = rows.take()
    assert [row["channel"] for row in entered] == ["a"]
    assert left == ["gone", "later"]


def test_a_socket_that_closes_during_a_failed_write_is_never_written():
    rows = presence._PlayRows()
    rows.enter("brief", {"kind": "play", "user_id": 1, "game_id": 1})
    entered, left = rows.take()
    rows.leave("brief")  # while the write runs
    rows.give_back(entered, left)  # and fails
    assert rows.take() == ([], [])


def test_a_socket_whose_game_was_deleted_before_its_row_does_not_stop_the_others(
    player, rival, transactional_db
):
    kept, gone = (services.game_open(player=p, code=CODE) for p in (player, rival))
    row = {"process": presence.PROCESS, "kind": "play", "seen_at": timezone.now()}
    entered = [
        row | {"channel": "kept", "user_id": player.pk, "game_id": kept.pk},
        row | {"channel": "gone", "user_id": rival.pk, "game_id": gone.pk},
    ]
    rival.delete()  # the account and its game, while the rows waited to be written
    presence.presence_apply(entered=entered, left=[])
    assert list(Presence.objects.values_list("channel", flat=True)) == ["kept"]


def test_sockets_that_came_and_went_are_written_in_one_go(player, rival, db):
    game = services.game_open(player=player, code=CODE)
    other = services.game_open(player=rival, code=CODE)
    presence.presence_enter(channel="old", kind="play", user_id=rival.pk, game_id=other.pk)
    row = {"process": presence.PROCESS, "kind": "play", "seen_at": timezone.now()}
    entered = [row | {"channel": "new", "user_id": player.pk, "game_id": game.pk}]
    presence.presence_apply(entered=entered, left=["old"])
    assert list(Presence.objects.values_list("channel", flat=True)) == ["new"]
    assert presence.presence_snapshot()["playing"] == 1
    presence.presence_apply(entered=entered, left=[])  # written twice: still one row
    assert Presence.objects.count() == 1


async def test_a_sync_on_the_home_socket_answers_with_the_counts_and_keeps_it_open():
    home = await connect("/ws/live/home/")
    await frame_of(home, "presence")
    await home.send_json_to({"type": "sync"})
    assert (await frame_of(home, "presence"))["playing"] == 0
    await home.send_json_to({"type": "sync"})
    assert (await home.receive_json_from())["type"] == "presence"
    await home.disconnect()
