"""Racing again over the room socket: the `again` frame answers with the rematch, the old
room's sockets see the link, and a press too late is told so."""

import datetime

import pytest
import time_machine
from channels.db import database_sync_to_async

from game.models import RaceRoom
from tests.layers import fresh_channel_layer  # noqa: F401  (an autouse fixture)
from tests.services.test_rematches import finished_race
from tests.site import connect, frame_of

pytestmark = pytest.mark.django_db(transaction=True)


@database_sync_to_async
def race_over(*racers) -> RaceRoom:
    return finished_race(*racers)


async def test_both_racers_pressing_race_again_are_sent_to_one_new_room(
    player, rival, player_cookie, rival_cookie
):
    old = await race_over(player, rival)
    ann = await connect(f"/ws/race/{old.room}/", player_cookie)
    bea = await connect(f"/ws/race/{old.room}/", rival_cookie)
    for socket in (ann, bea):
        shown = await frame_of(socket, "room")
        assert shown["rematch"] is None and shown["again_until"]
    await ann.send_json_to({"type": "again"})
    sent = await frame_of(ann, "again")
    assert sent["url"] == f"/race/{sent['room']}/"
    linked = await frame_of(bea, "room")  # the old room now links to its rematch
    assert linked["rematch"] == {"room": sent["room"], "url": sent["url"]}
    await bea.send_json_to({"type": "again"})
    assert await frame_of(bea, "again") == sent
    for socket in (ann, bea):
        await socket.disconnect()


async def test_race_again_after_30_seconds_is_too_late(player, rival, rival_cookie):
    old = await race_over(player, rival)
    with time_machine.travel(old.finished_at + datetime.timedelta(seconds=31)):
        bea = await connect(f"/ws/race/{old.room}/", rival_cookie)
        await frame_of(bea, "room")
        await bea.send_json_to({"type": "again"})
        reply = await frame_of(bea, "error")
    assert reply["error"] == "rematch_too_late" and "30 seconds" in reply["message"]
    await bea.disconnect()


async def test_an_onlooker_cannot_race_again(player, rival, make_player):
    old = await race_over(player, rival)
    onlooker = await connect(f"/ws/race/{old.room}/")
    await frame_of(onlooker, "room")
    await onlooker.send_json_to({"type": "again"})
    assert (await frame_of(onlooker, "error"))["error"] == "login_required"
    await onlooker.disconnect()
