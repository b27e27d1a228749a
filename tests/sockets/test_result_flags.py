"""Plausibility flags on the real ASGI app: a bot's result is flagged for review, a person's
pace is not, and a flag changes nothing anyone sees."""

import asyncio
import datetime
import io

import pytest
import time_machine
from channels.db import database_sync_to_async
from django.core.management import call_command

from game import engine, services
from game.models import Result, ResultFlag
from game.selectors import daily
from game.selectors.results import result_rank
from tests.layers import fresh_channel_layer  # noqa: F401  (an autouse fixture)
from tests.site import greeted, send

pytestmark = pytest.mark.django_db(transaction=True)

PERSONS_PACE_S = 0.25  # a quick person: four taps a second
DRAWS = 12  # enough moves to judge a pace


@database_sync_to_async
def stored(game_id):
    """The game's result, its rank, and the reasons it was flagged for."""
    result = Result.objects.get(game_id=game_id)
    reasons = set(ResultFlag.objects.filter(result=result).values_list("reason", flat=True))
    return result, result_rank(result=result), reasons


async def test_a_solver_bot_tapping_as_fast_as_the_socket_admits_is_flagged_for_review(
    player_cookie, winnable, settings
):
    settings.TAP_RATE = 0  # the bot is let through at full speed: the limiter is not the test
    code, plan = winnable
    socket, first = await greeted(player_cookie, code)
    for seq, target in enumerate(plan, start=1):
        last = await send(socket, {"type": "tap", "seq": seq, "target": target})
    await socket.disconnect()
    result, rank, reasons = await stored(first["game"]["id"])
    assert reasons == {"fast_taps", "fast_pairs"}
    # Review, never block: the win stands, ranked first, and no frame tells the bot.
    assert result.won and rank == {"rank": 1, "of": 1, "board": "deal"}
    assert last["game"]["result"]["rank"] == 1 and "flag" not in str(last)


async def test_a_game_played_at_a_persons_pace_is_not_flagged(player_cookie):
    socket, first = await greeted(player_cookie, "HH1-N-AAAAAAC")
    for seq in range(1, DRAWS + 1):
        await asyncio.sleep(PERSONS_PACE_S)
        assert (await send(socket, {"type": "tap", "seq": seq, "target": "stock"}))["game"]
    await send(socket, {"type": "resign", "seq": DRAWS + 1})
    await socket.disconnect()
    result, _, reasons = await stored(first["game"]["id"])
    assert result.moves == DRAWS and reasons == set()


@database_sync_to_async
def todays_ranked_code(player) -> str:
    return services.game_daily_open(player=player).code


@database_sync_to_async
def audited_afresh() -> str:
    """What `manage.py audit_results` prints on stderr for results stored before flags were."""
    ResultFlag.objects.all().delete()
    err = io.StringIO()
    call_command("audit_results", stdout=io.StringIO(), stderr=err)
    return err.getvalue()


async def test_reading_the_ranked_dailys_stock_by_undoing_draws_is_flagged_for_review(
    player, player_cookie, settings
):
    settings.TAP_RATE = 0  # the frames' times come from the clock below, not from waiting
    midday = daily.daily_day_end(daily.daily_today()) - datetime.timedelta(hours=12)
    with time_machine.travel(midday, tick=True) as clock:  # no midnight during the game
        code = await todays_ranked_code(player)
        stock = len(engine.new_game(code, key=settings.DEAL_KEY).stock)
        plan = engine.solve(code, key=settings.DEAL_KEY)  # a line computed from the known stock
        frames = [{"type": "start"}, *[{"type": "tap", "target": "stock"}] * stock]
        frames += [{"type": "undo"}] * stock + [{"type": "tap", "target": t} for t in plan]
        socket, first = await greeted(player_cookie, code)
        for seq, frame in enumerate(frames, start=1):
            clock.shift(1.5)  # every frame at a person's pace: no fast_* flag
            last = await send(socket, frame | {"seq": seq})
        await socket.disconnect()
    result, rank, reasons = await stored(first["game"]["id"])
    assert result.ranked and result.won and result.undos == stock and reasons == {"stock_scouted"}
    assert rank["rank"] == 1 and "flag" not in str(last)  # review, never block
    printed = await audited_afresh()
    flag = f"flag: result {result.pk} (game {result.game_id}, /replay/{result.game_id}/): "
    assert f"{flag}stock_scouted: {stock} of the stock's 26 cards were first shown" in printed
    assert (await stored(result.game_id))[2] == {"stock_scouted"}  # stored again by the audit
