"""A game resumed after an outage: its snapshot says how long the servers were down inside it
(`paused_ms`), for the board's clock to leave out; the player's own absence is no outage."""

from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.utils import timezone

from game import services
from game.models import Game, ServerBeat
from game.selectors.outages import BEAT_TOLERANCE
from tests.site import connect, frame_of, greeted

pytestmark = pytest.mark.django_db(transaction=True)

CODE = "HH1-N-AAAAAAC"


@database_sync_to_async
def begun_two_minutes_ago(player, *, down: tuple[int, int] | None) -> Game:
    """The player's game of CODE, started 120 s ago; the servers beat all along but for the
    seconds `down` (from, to) of it."""
    game = services.game_open(player=player, code=CODE)
    start = timezone.now() - timedelta(seconds=120)
    Game.objects.filter(pk=game.pk).update(started_at=start)
    vouched = BEAT_TOLERANCE.total_seconds()  # after a stretch's last beat
    ends = [(-60, down[0] - vouched), (down[1], 120)] if down else [(-60, 120)]
    for since, until in ends:
        at = start + timedelta(seconds=since), start + timedelta(seconds=until)
        ServerBeat.objects.create(process="a", since=at[0], until=at[1])
    return game


async def test_a_resumed_games_snapshot_carries_the_outage_inside_it(player, player_cookie):
    game = await begun_two_minutes_ago(player, down=(30, 43))
    socket, greeting = await greeted(player_cookie, CODE)
    assert greeting["game"]["paused_ms"] == 13_000
    watcher = await connect(f"/ws/watch/{game.pk}/", player_cookie)
    assert (await frame_of(watcher, "state"))["game"]["paused_ms"] == 13_000
    await watcher.disconnect()
    await socket.disconnect()


async def test_a_player_who_was_away_while_the_servers_ran_has_nothing_paused(
    player, player_cookie
):
    await begun_two_minutes_ago(player, down=None)
    socket, greeting = await greeted(player_cookie, CODE)
    assert greeting["game"]["paused_ms"] == 0
    await socket.disconnect()
