"""Par over the play socket: absent while the game is open, then in the result or, once
computed, in a "par" frame to the game's sockets."""

import json

import pytest
from channels.db import database_sync_to_async

from game import engine
from game.models import DealPar
from tests.site import connect, frame_of, greeted

pytestmark = pytest.mark.django_db(transaction=True)


async def play_to_the_end(socket, plan):
    """Every frame received up to each tap's state reply, in order."""
    frames = []
    for seq, action in enumerate(plan, start=1):
        await socket.send_json_to({"type": "tap", "seq": seq, "target": action})
        while not frames or frames[-1]["type"] != "state" or frames[-1].get("seq") != seq:
            frames.append(await socket.receive_json_from(timeout=10))
    return frames


async def par_frame(socket, frames):
    """The par frame: among `frames` (it may overtake the final reply) or the next to come."""
    found = [frame for frame in frames if frame["type"] == "par"]
    return found[0] if found else await frame_of(socket, "par", timeout=10)


@database_sync_to_async
def stored_par(code):
    return DealPar.objects.filter(code=code).values_list("par", flat=True).first()


async def test_par_reaches_the_player_only_after_the_game_ends(player_cookie, winnable, settings):
    settings.TAP_RATE = 0
    code, plan = winnable
    socket, first = await greeted(player_cookie, code)
    watcher = await connect(f"/ws/watch/{first['game']['id']}/")  # anyone may watch it
    *before, last = [first, *await play_to_the_end(socket, plan)]
    # Only a par frame, sent once the final move is stored, may overtake the final reply.
    assert all('"par"' not in json.dumps(frame) for frame in before if frame["type"] != "par")
    par = engine.min_moves(code, key=settings.DEAL_KEY)
    # The final reply carries par if its search finished first, else null until the frame.
    final = last["game"]["result"]
    assert final["won"] and final["par"] in (None, par)
    pushed = await par_frame(socket, before)
    assert pushed == {"type": "par", "game": first["game"]["id"], "par": par}
    assert await stored_par(code) == par
    seen = []
    while not await watcher.receive_nothing(timeout=0.3):
        seen.append(await watcher.receive_json_from())
    assert seen and all('"par"' not in json.dumps(frame) for frame in seen)  # theirs alone
    await watcher.disconnect()
    other, again = await greeted(player_cookie, code)  # a tab opened later reads it stored
    assert again["game"]["result"]["par"] == par
    await socket.disconnect()
    await other.disconnect()


async def test_a_second_game_of_a_code_has_par_in_its_result_at_once(
    rival_cookie, winnable, settings
):
    settings.TAP_RATE = 0
    code, plan = winnable
    par = engine.min_moves(code, key=settings.DEAL_KEY)
    await database_sync_to_async(DealPar.objects.create)(code=code, par=par)
    socket, _first = await greeted(rival_cookie, code)
    frames = await play_to_the_end(socket, plan)
    assert frames[-1]["game"]["result"]["par"] == par
    assert await socket.receive_nothing(timeout=0.5)  # nothing left to push
    await socket.disconnect()
