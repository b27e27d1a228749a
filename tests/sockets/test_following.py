"""Following boards live (`?players=following`), and a deleted account's sockets and results:
its sockets close at once, its results leave the live boards."""

import pytest
from channels.db import database_sync_to_async
from django.test import AsyncClient

from game import services
from game.selectors import daily
from game.services.accounts import account_delete
from game.services.follows import follow_create
from game.sockets.base import CLOSE_LOGGED_OUT, CLOSE_LOGIN_REQUIRED, CLOSE_NOT_FOUND
from tests.layers import fresh_channel_layer  # noqa: F401  (an autouse fixture)
from tests.site import connect, frame_of, greeted, resign, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)

CODE = "HH1-N-AAAAAAC"
FOLLOWING = f"/ws/live/deal/{CODE}/?players=following"


async def close_code(socket) -> int:
    """The code the socket closes with, within 2 s, past any frame still on its way."""
    while (output := await socket.receive_output(timeout=2))["type"] != "websocket.close":
        pass
    return output["code"]


@pytest.fixture
def cid(make_player):
    return make_player("cid")


async def test_a_following_board_shows_live_only_whom_one_follows_and_oneself(
    player, rival, cid, player_cookie
):
    await resign(cid, CODE)
    await resign(rival, CODE)
    await database_sync_to_async(follow_create)(follower=player, followed=cid)
    board = await connect(FOLLOWING, player_cookie)
    snapshot = await frame_of(board, "board")
    assert snapshot["version"] == 2 and [r["player"] for r in snapshot["rows"]] == ["Cid"]
    await resign(rival, "HH1-N-AAAAAAD")  # another board: nothing comes
    await resign(rival, CODE)  # someone not followed: the version, and no row
    assert await frame_of(board, "update") == {"type": "update", "version": 3, "row": None}
    await resign(cid, CODE)
    update = await frame_of(board, "update")
    assert update["version"] == 4 and update["row"]["player"] == "Cid"
    await resign(player, CODE)
    mine = await frame_of(board, "update")
    assert mine["row"]["player"] == "Ann" and mine["row"]["you"] is True
    await board.disconnect()


async def test_a_new_follow_shows_at_the_next_sync(player, rival, player_cookie):
    await resign(rival, CODE)
    board = await connect(FOLLOWING, player_cookie)
    assert (await frame_of(board, "board"))["rows"] == []
    await database_sync_to_async(follow_create)(follower=player, followed=rival)
    await board.send_json_to({"type": "sync"})
    assert [r["player"] for r in (await frame_of(board, "board"))["rows"]] == ["Bea"]
    await board.disconnect()


@database_sync_to_async
def ranked_daily_resigned(player) -> None:
    game = services.game_daily_open(player=player)
    services.game_start(game=services.LockedGame(game.pk), player=player, seq=1)
    services.game_resign(game=services.LockedGame(game.pk), player=player)


async def test_the_following_all_time_and_daily_boards_update_for_the_followed_only(
    player, rival, cid, player_cookie
):
    await database_sync_to_async(follow_create)(follower=player, followed=cid)
    today = daily.daily_today().isoformat()
    all_time = await connect("/ws/live/all-time/?players=following", player_cookie)
    day = await connect(f"/ws/live/daily/{today}/?players=following", player_cookie)
    assert (await frame_of(all_time, "board"))["rows"] == []
    assert (await frame_of(day, "board"))["rows"] == []
    await ranked_daily_resigned(rival)
    assert (await frame_of(day, "update"))["row"] is None
    await ranked_daily_resigned(cid)
    records = await frame_of(all_time, "board")
    assert [r["player"] for r in records["rows"]] == ["Cid"] and records["fresh"] == "Cid"
    assert (await frame_of(day, "update"))["row"]["player"] == "Cid"
    assert await all_time.receive_nothing()  # Bea's result sent it nothing
    for socket in (all_time, day):
        await socket.disconnect()


async def test_a_following_board_needs_a_login():
    board = await connect(FOLLOWING)
    assert (await board.receive_json_from())["error"] == "login_required"
    assert await close_code(board) == CLOSE_LOGIN_REQUIRED


async def test_a_board_asked_for_other_players_is_refused(player_cookie):
    board = await connect(f"/ws/live/deal/{CODE}/?players=friends", player_cookie)
    assert (await board.receive_json_from())["error"] == "bad_players"
    assert await close_code(board) == CLOSE_NOT_FOUND


async def test_logging_out_closes_a_following_board_but_not_a_public_one(player):
    cookie = await database_sync_to_async(session_cookie)(player)
    following = await connect(FOLLOWING, cookie)
    public = await connect(f"/ws/live/deal/{CODE}/", cookie)
    for socket in (following, public):
        await frame_of(socket, "board")
    client = AsyncClient()
    client.cookies.load(cookie)
    assert (await client.post("/accounts/logout/")).status_code == 302
    assert await close_code(following) == CLOSE_LOGGED_OUT
    await public.send_json_to({"type": "sync"})
    assert (await frame_of(public, "board"))["type"] == "board"
    await public.disconnect()


async def test_a_deleted_accounts_open_sockets_close_at_once(player, rival):
    cookie = await database_sync_to_async(session_cookie)(player)
    other_device = await database_sync_to_async(session_cookie)(player)
    play, _ = await greeted(cookie, CODE)
    sockets = [
        play,
        await connect(f"/ws/live/deal/{CODE}/", cookie),
        await connect(FOLLOWING, other_device),
    ]
    for board in sockets[1:]:
        await frame_of(board, "board")
    await database_sync_to_async(account_delete)(user=player)
    for socket in sockets:
        assert await close_code(socket) == CLOSE_LOGGED_OUT


async def test_a_deleted_players_results_leave_the_live_boards(player, rival, rival_cookie):
    await resign(player, CODE)
    await resign(rival, CODE)
    boards = [
        await connect(f"/ws/live/deal/{CODE}/"),
        await connect(FOLLOWING, rival_cookie),
    ]
    for board in boards:
        await frame_of(board, "board")
    await database_sync_to_async(account_delete)(user=player)
    for board in boards:
        snapshot = await frame_of(board, "board")
        assert snapshot["version"] == 3 and [r["player"] for r in snapshot["rows"]] == ["Bea"]
        await board.disconnect()
