"""Live leaderboards: a finished game reaches its boards after commit, in version order, and a
client that missed updates resynchronises from a snapshot."""

import pytest
import time_machine
from channels.db import database_sync_to_async
from django.test import Client
from django.utils import timezone

from game import services
from game.models import Guest, Rating, RatingKind
from game.selectors import daily, leaderboards
from game.selectors.abandoned import ABANDONED_AFTER
from game.selectors.ranking import RANK_ORDER
from tests.layers import fresh_channel_layer  # noqa: F401  (an autouse fixture)
from tests.site import connect, frame_of, resign, resign_now, sign_up

pytestmark = pytest.mark.django_db(transaction=True)

CODE = "HH1-N-AAAAAAC"


async def test_a_finished_game_reaches_its_deal_board_with_the_next_version(player):
    board = await connect(f"/ws/live/deal/{CODE}/")
    snapshot = await frame_of(board, "board")
    assert snapshot | {"version": 0, "rows": [], "board": f"deal:{CODE}"} == snapshot
    assert snapshot["order"] == list(RANK_ORDER)
    game_id = await resign(player, CODE)
    update = await frame_of(board, "update")
    assert update["version"] == 1
    row = update["row"]
    assert row | {"player": "Ann", "won": False, "score": 0, "you": False} == row
    assert row["replay_url"] == f"/replay/{game_id}/" and row["player_url"] == "/players/Ann/"
    assert "player_id" not in row
    assert await board.receive_nothing()
    await board.disconnect()


async def test_the_players_own_socket_marks_their_row(player, player_cookie):
    board = await connect(f"/ws/live/deal/{CODE}/", player_cookie)
    await frame_of(board, "board")
    await resign(player, CODE)
    assert (await frame_of(board, "update"))["row"]["you"] is True
    await board.disconnect()


@database_sync_to_async
def todays_ranked_game(player) -> tuple[str, int]:
    game = services.game_daily_open(player=player)
    assert game.ranked
    services.game_start(game=services.LockedGame(game.pk), player=player, seq=1)
    return game.code, game.pk


@database_sync_to_async
def resign_game(player, game_id):
    services.game_resign(game=services.LockedGame(game_id), player=player)


async def test_a_ranked_daily_result_reaches_the_day_deal_and_all_time_boards(player, rival):
    code, game_id = await todays_ranked_game(player)
    today = daily.daily_today().isoformat()
    day = await connect(f"/ws/live/daily/{today}/")
    deal = await connect(f"/ws/live/deal/{code}/")
    all_time = await connect("/ws/live/all-time/")
    for socket in (day, deal, all_time):
        assert (await frame_of(socket, "board"))["version"] == 0
    await frame_of(day, "presence")  # today's board has said all it says on connect
    await resign_game(player, game_id)
    assert (await frame_of(day, "update"))["row"]["player"] == "Ann"
    assert (await frame_of(deal, "update"))["row"]["player"] == "Ann"
    records = await frame_of(all_time, "board")
    assert records["version"] == 1 and records["fresh"] == "Ann"
    assert [(r["player"], r["played"], r["wins"]) for r in records["rows"]] == [("Ann", 1, 0)]
    # A practice game of the same deal is on the deal board only.
    await resign(player, code)
    assert (await frame_of(deal, "update"))["version"] == 2
    assert await day.receive_nothing() and await all_time.receive_nothing()
    for socket in (day, deal, all_time):
        await socket.disconnect()


async def test_a_client_that_missed_updates_resynchronises_from_a_snapshot(player, rival):
    board = await connect(f"/ws/live/deal/{CODE}/")
    await frame_of(board, "board")
    await board.disconnect()
    await resign(player, CODE)
    await resign(rival, CODE)
    again = await connect(f"/ws/live/deal/{CODE}/")
    snapshot = await frame_of(again, "board")
    assert snapshot["version"] == 2
    assert sorted(row["player"] for row in snapshot["rows"]) == ["Ann", "Bea"]
    # A client that sees a gap asks again; the answer is the same complete board.
    await again.send_json_to({"type": "sync"})
    assert await frame_of(again, "board") == snapshot | {"fresh": None}
    await again.disconnect()


@database_sync_to_async
def opened_a_day_ago(player, code: str) -> int:
    """The player's game of `code`, opened a day ago and not moved since: abandoned."""
    with time_machine.travel(timezone.now() - ABANDONED_AFTER, tick=False):
        return services.game_open(player=player, code=code).pk


async def test_an_abandoned_game_resigned_later_sends_its_deal_board_without_it(player, rival):
    board = await connect(f"/ws/live/deal/{CODE}/")
    await frame_of(board, "board")
    await resign(rival, CODE)
    assert (await frame_of(board, "update"))["row"]["player"] == "Bea"
    await opened_a_day_ago(player, CODE)
    await resign(player, CODE)  # ended a day after its start: a day's time
    snapshot = await frame_of(board, "board")  # the whole board again, never the row
    assert snapshot["version"] == 2 and [row["player"] for row in snapshot["rows"]] == ["Bea"]
    assert await board.receive_nothing()
    await board.disconnect()


def ranked_and_resigned(player) -> None:
    game = services.game_daily_open(player=player)
    services.game_start(game=services.LockedGame(game.pk), player=player, seq=1)
    services.game_resign(game=services.LockedGame(game.pk), player=player)


async def test_syncing_an_unchanged_all_time_board_recomputes_nothing(player, monkeypatch):
    computed = []

    def all_time_records(players=None):
        computed.append(1)
        return records(players)

    records = leaderboards.all_time_records
    monkeypatch.setattr(leaderboards, "all_time_records", all_time_records)
    await database_sync_to_async(ranked_and_resigned)(player)
    board = await connect("/ws/live/all-time/")
    first = await frame_of(board, "board")
    for _ in range(5):
        await board.send_json_to({"type": "sync"})
        assert await frame_of(board, "board") == first
    assert len(computed) == 1
    await board.disconnect()


async def test_updates_come_in_version_order_one_per_result(player, rival):
    board = await connect(f"/ws/live/deal/{CODE}/")
    await frame_of(board, "board")
    await resign(player, CODE)
    await resign(rival, CODE)
    versions = [(await frame_of(board, "update"))["version"] for _ in range(2)]
    assert versions == [1, 2]
    await board.disconnect()


@pytest.mark.parametrize(
    ("frame", "error"),
    [
        ("not json", "bad_json"),
        ("[1, 2]", "bad_frame"),
        ('{"type": "tap", "target": 3}', "unknown_frame"),
        ('{"type": "sync", "pad": "' + "x" * 1100 + '"}', "too_large"),
        ("[" * 1000, "bad_json"),
    ],
)
async def test_a_bad_frame_gets_an_error_frame_and_the_socket_stays_open(frame, error):
    board = await connect("/ws/live/all-time/")
    await frame_of(board, "board")
    await board.send_to(text_data=frame)
    reply = await board.receive_json_from()
    assert (reply["type"], reply["error"]) == ("error", error) and reply["message"]
    await board.send_to(bytes_data=b"\x00")
    assert (await board.receive_json_from())["error"] == "binary"
    await board.send_json_to({"type": "sync"})
    assert (await board.receive_json_from())["type"] == "board"
    await board.disconnect()


@pytest.mark.parametrize("path", ["/ws/live/deal/HH9-N-AAAAAAA/", "/ws/live/daily/2024-13-01/"])
async def test_a_socket_on_no_such_board_is_told_and_closed(path):
    socket = await connect(path)
    frame = await socket.receive_json_from()
    assert frame["error"] == "bad_board" and frame["message"]
    assert (await socket.receive_output())["code"] == 4004


@database_sync_to_async
def guest_who_resigned(code: str) -> Client:
    """A visitor's browser whose guest has a result of `code`."""
    browser = Client()
    browser.get(f"/play/{code}/")
    resign_now(Guest.objects.get(session_key=browser.session.session_key).user, code)
    return browser


async def test_a_guests_results_join_the_live_board_when_they_sign_up(rival):
    await resign(rival, CODE)
    board = await connect(f"/ws/live/deal/{CODE}/")
    assert (await frame_of(board, "board"))["version"] == 1
    browser = await guest_who_resigned(CODE)
    assert await board.receive_nothing()  # a guest's result is on no board
    signed_up = await database_sync_to_async(sign_up)(
        browser, username="cat", email="c@x.org", display_name="Cat"
    )
    assert signed_up.status_code == 302
    update = await frame_of(board, "board")
    assert update["version"] == 2 and update["fresh"] == "Cat"
    assert sorted(row["player"] for row in update["rows"]) == ["Bea", "Cat"]
    fresh = await connect(f"/ws/live/deal/{CODE}/")
    assert await frame_of(fresh, "board") == update | {"fresh": None}  # what a new page shows
    page = await database_sync_to_async(Client().get)(f"/leaderboard/deal/{CODE}/")
    assert "/players/Cat/" in page.content.decode()
    for socket in (board, fresh):
        await socket.disconnect()


@database_sync_to_async
def rated(player, rating: float, deviation: float) -> None:
    Rating.objects.create(
        player=player, kind=RatingKind.DAILY, rating=rating, deviation=deviation,
        volatility=0.06, rated_at=timezone.now(),
    )  # fmt: skip


async def test_a_new_rows_update_carries_its_players_daily_rating(player, rival):
    await rated(player, 1644.4, deviation=300)
    board = await connect(f"/ws/live/deal/{CODE}/")
    await frame_of(board, "board")
    await resign(player, CODE)
    assert (await frame_of(board, "update"))["row"]["rating"] == {
        "value": 1644,
        "provisional": True,
    }
    await resign(rival, CODE)  # never rated: nothing beside the name
    assert (await frame_of(board, "update"))["row"]["rating"] is None
    await board.disconnect()
