"""The end of a ranked daily over the socket: the day's standing comes with the result, never
before it (docs/protocol.md, "The end of a ranked daily")."""

import pytest
from channels.db import database_sync_to_async

from game import engine, services
from tests.site import greeted, send

pytestmark = pytest.mark.django_db(transaction=True)


@database_sync_to_async
def todays_ranked_code(player) -> str:
    return services.game_daily_open(player=player).code


async def test_winning_the_ranked_daily_sends_the_days_standing_with_the_result_only(
    player, player_cookie, settings
):
    settings.TAP_RATE = 0  # faster than any hand: no rate limit
    code = await todays_ranked_code(player)
    plan = engine.solve(code, key=settings.DEAL_KEY)
    socket, first = await greeted(player_cookie, code)
    frames = [first, await send(socket, {"type": "start", "seq": 1})]
    for seq, action in enumerate(plan, start=2):
        frames.append(await send(socket, {"type": "tap", "seq": seq, "target": action}))
    for frame in frames[:-1]:
        assert "daily" not in str(frame.get("game", {}).get("result"))
        assert "percentile" not in str(frame) and "next_deal_at" not in str(frame)
    finish = frames[-1]["game"]["result"]["daily"]
    assert finish["cleared"] == 25 and finish["percentile"] is None and finish["compared"] == 0
    assert finish["streak"] == {"current": 1, "best": 1}
    assert finish["distribution"]["bars"][0]["count"] == 1 and finish["distribution"]["you"] == 0
    assert finish["next_deal_at"].endswith("+00:00")
    await socket.disconnect()
    socket, again = await greeted(player_cookie, code)  # a reconnect shows it too
    assert again["game"]["result"]["daily"]["streak"] == finish["streak"]
    await socket.disconnect()


async def test_resigning_the_ranked_daily_sends_the_cards_cleared_and_the_not_cleared_bar(
    player, player_cookie
):
    code = await todays_ranked_code(player)
    socket, _ = await greeted(player_cookie, code)
    await send(socket, {"type": "start", "seq": 1})
    frame = await send(socket, {"type": "resign", "seq": 2})
    finish = frame["game"]["result"]["daily"]
    assert finish["cleared"] == 0 and finish["streak"] == {"current": 0, "best": 0}
    assert finish["distribution"]["you"] == len(finish["distribution"]["bars"]) - 1
    await socket.disconnect()


async def test_other_games_have_no_daily_standing(player_cookie):
    socket, _ = await greeted(player_cookie, "HH1-N-AAAAAAC")
    frame = await send(socket, {"type": "resign", "seq": 1})
    assert frame["game"]["result"]["daily"] is None
    await socket.disconnect()
