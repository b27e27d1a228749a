"""A review's decision reaches the live boards: a result voided in the admin leaves today's
board on every open socket at once, and a page loaded after agrees."""

import pytest
from channels.db import database_sync_to_async

from game import services
from game.models import Result
from game.selectors import daily
from game.services.daily import daily_deal
from game.services.reviews import day_void
from tests.layers import fresh_channel_layer  # noqa: F401  (an autouse fixture)
from tests.site import connect, frame_of, sockets_database_work_done

pytestmark = pytest.mark.django_db(transaction=True)


@database_sync_to_async
def ranked_and_resigned(player) -> int:
    game = services.game_daily_open(player=player)
    services.game_start(game=services.LockedGame(game.pk), player=player, seq=1)
    services.game_resign(game=services.LockedGame(game.pk), player=player)
    return Result.objects.get(game=game).pk


async def test_a_result_voided_in_the_admin_leaves_the_open_daily_board(
    admin_client, player, rival
):
    ann, bea = await ranked_and_resigned(player), await ranked_and_resigned(rival)
    today = daily.daily_today().isoformat()
    board = await connect(f"/ws/live/daily/{today}/")
    before = await frame_of(board, "board")
    assert sorted(row["id"] for row in before["rows"]) == sorted([ann, bea])
    await sockets_database_work_done()  # the board's first reads, before the admin's write
    post = database_sync_to_async(admin_client.post)
    data = {"action": "void_results", "_selected_action": [ann], "apply": "yes", "reason": "bot"}
    assert (await post("/admin/game/result/", data)).status_code == 302
    after = await frame_of(board, "board")
    assert after["version"] == before["version"] + 1 and after["fresh"] is None
    assert [row["id"] for row in after["rows"]] == [bea]
    page = await database_sync_to_async(admin_client.get)(f"/leaderboard/daily/{today}/")
    assert f'data-id="{bea}"' in page.content.decode()
    assert f'data-id="{ann}"' not in page.content.decode()
    await board.disconnect()


@database_sync_to_async
def todays_day_voided(admin_user) -> None:
    day_void(deal=daily_deal(), reason="a dead deal", by=admin_user)


async def test_a_result_that_ends_on_a_voided_day_joins_no_open_board(admin_user, player):
    await todays_day_voided(admin_user)
    today = daily.daily_today().isoformat()
    board = await connect(f"/ws/live/daily/{today}/")
    before = await frame_of(board, "board")
    await sockets_database_work_done()  # the board's first read, before the test's writes
    await ranked_and_resigned(player)
    after = await board.receive_json_from(timeout=5)
    while after["type"] == "presence":
        after = await board.receive_json_from(timeout=5)
    assert after["type"] == "board" and after["version"] == before["version"] + 1
    assert after["rows"] == [] and after["fresh"] == "Ann"
    await board.disconnect()
