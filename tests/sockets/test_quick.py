"""The quick race's socket, /ws/race/quick/: the frames of its contract, leaving before a
match, belonging to the room after it, and the ghost race offered after a long wait."""

from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.utils import timezone

from game.models import Game, QuickEntry, RaceRoom, Rating, RatingKind, Result
from game.sockets import quick as quick_socket
from game.sockets.base import CLOSE_LOGIN_REQUIRED
from tests.layers import fresh_channel_layer  # noqa: F401  (an autouse fixture)
from tests.site import connect, frame_of, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)
PATH = "/ws/race/quick/"


@pytest.fixture(autouse=True)
def quick_clock(settings):
    settings.QUICK_RACE_SPEED = 20  # rounds every 50 ms, a 0.5 s countdown


@database_sync_to_async
def cookies(make_player, *names) -> list[str]:
    return [session_cookie(make_player(name)) for name in names]


@database_sync_to_async
def entries() -> int:
    return QuickEntry.objects.count()


async def test_a_player_alone_is_queued_and_told_how_many_wait(make_player):
    (ann,) = await cookies(make_player, "ann")
    socket = await connect(PATH, ann)
    assert await frame_of(socket, "queued") == {"type": "queued", "waiting": 1}
    await socket.disconnect()


async def test_two_players_are_matched_and_each_is_sent_their_room(make_player):
    ann, bea = await cookies(make_player, "ann", "bea")
    first = await connect(PATH, ann)
    assert (await frame_of(first, "queued"))["waiting"] == 1
    second = await connect(PATH, bea)
    matched = [await frame_of(socket, "matched") for socket in (first, second)]
    room = matched[0]["room"]
    assert matched[0] == matched[1] == {"type": "matched", "room": room, "url": f"/race/{room}/"}
    assert await database_sync_to_async(RaceRoom.objects.get)(room=room, quick=True)
    for socket in (first, second):
        await socket.disconnect()


async def test_a_matched_player_leaving_the_quick_socket_still_races(make_player):
    ann, bea = await cookies(make_player, "ann", "bea")
    first, second = await connect(PATH, ann), await connect(PATH, bea)
    room = (await frame_of(first, "matched"))["room"]
    await first.disconnect()  # the page goes to the room
    await second.disconnect()
    racers = database_sync_to_async(lambda: RaceRoom.objects.get(room=room).entries.count())
    assert await racers() == 2 and await entries() == 2
    again = await connect(PATH, ann)  # the quick page opened again: the room is still theirs
    assert (await frame_of(again, "matched"))["room"] == room
    await again.disconnect()


async def test_closing_the_socket_before_a_match_leaves_the_queue(make_player):
    ann, bea = await cookies(make_player, "ann", "bea")
    first = await connect(PATH, ann)
    await frame_of(first, "queued")
    await first.disconnect()
    assert await entries() == 0
    second = await connect(PATH, bea)
    assert (await frame_of(second, "queued"))["waiting"] == 1
    assert await second.receive_nothing(timeout=0.3)  # nobody to match with
    await second.disconnect()


@database_sync_to_async
def rated_far(player):
    Rating.objects.create(
        player=player,
        kind=RatingKind.RACE,
        rating=2600,
        deviation=60,
        volatility=0.06,
        rated_at=timezone.now(),
    )


async def test_the_count_follows_the_queue_as_others_come_and_go(make_player, settings):
    settings.QUICK_RACE_SPEED = 1  # windows widen slowly: these two are 1100 apart
    (ann,) = await cookies(make_player, "ann")
    bea_player = await database_sync_to_async(make_player)("bea")
    await rated_far(bea_player)
    watcher = await connect(PATH, ann)
    assert (await frame_of(watcher, "queued"))["waiting"] == 1
    other = await connect(PATH, await database_sync_to_async(session_cookie)(bea_player))
    assert (await frame_of(watcher, "queued"))["waiting"] == 2
    await other.disconnect()
    assert (await frame_of(watcher, "queued", timeout=3))["waiting"] == 1
    await watcher.disconnect()


async def test_a_visitor_who_is_not_signed_in_is_refused():
    socket = await connect(PATH)
    assert (await frame_of(socket, "error"))["error"] == "login_required"
    assert (await socket.receive_output(timeout=1))["code"] == CLOSE_LOGIN_REQUIRED


@database_sync_to_async
def a_finished_game(player) -> Game:
    game = Game.objects.create(
        player=player, code="HH1-N-AAAAAAC", started_at=timezone.now(), status=Game.Status.WON
    )
    Result.objects.create(
        game=game,
        player=player,
        code=game.code,
        won=True,
        score=250,
        moves=40,
        undos=0,
        placement_help=False,
        duration_ms=90_000,
        finished_at=timezone.now(),
    )
    return game


async def test_a_long_wait_with_nobody_to_match_offers_a_ghost_race(make_player, monkeypatch):
    monkeypatch.setattr(quick_socket, "GHOST_AFTER", timedelta(seconds=2))  # 0.1 s here
    game = await a_finished_game(await database_sync_to_async(make_player)("cal"))
    (ann,) = await cookies(make_player, "ann")
    socket = await connect(PATH, ann)
    offer = await frame_of(socket, "ghost_offer")
    assert offer == {"type": "ghost_offer", "url": f"/play/HH1-N-AAAAAAC/?ghost={game.pk}"}
    assert await entries() == 1  # still queued
    assert await socket.receive_nothing(timeout=0.3)  # offered once
    await socket.disconnect()


async def test_a_socket_whose_entry_was_dropped_is_queued_again_by_its_next_round(make_player):
    (ann,) = await cookies(make_player, "ann")
    socket = await connect(PATH, ann)
    await frame_of(socket, "queued")
    await database_sync_to_async(QuickEntry.objects.all().delete)()  # its lease ran out
    assert (await frame_of(socket, "queued"))["waiting"] == 0  # the round that saw it gone
    assert (await frame_of(socket, "queued"))["waiting"] == 1  # queued again
    await socket.disconnect()
