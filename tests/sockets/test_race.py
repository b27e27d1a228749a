"""Race rooms over their sockets: lobby, countdown, live progress, the result table, rejoining."""

import re
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.test import Client
from django.utils import timezone

import h2h_site.asgi
from game.models import Game, RaceRoom, Result
from game.runtime import races as runtime_races
from game.services import races
from game.services.groups import player_group
from game.sockets.base import CLOSE_LOGGED_OUT
from tests.layers import fresh_channel_layer  # noqa: F401  (an autouse fixture)
from tests.site import connect, frame_of, open_socket, resign, reveals_stock

pytestmark = pytest.mark.django_db(transaction=True)

CODE = "HH1-N-AAAAAAC"


@pytest.fixture(autouse=True)
def quick(monkeypatch, settings):
    monkeypatch.setattr(races, "COUNTDOWN", timedelta(milliseconds=300))
    settings.TAP_RATE = 0  # the tests tap faster than any hand


@database_sync_to_async
def new_room(player, code="") -> str:
    return races.race_create(player=player, code=code).room


async def room_until(socket, done, timeout=3) -> dict:
    """Room frames until one satisfies `done`; progress frames in between are skipped."""
    while True:
        frame = await frame_of(socket, "room", timeout)
        if done(frame):
            return frame


def entry(frame, name) -> dict:
    return next(e for e in frame["entries"] if e["name"] == name)


async def lobby_of_two(player_cookie, rival_cookie, room):
    """Ann (the creator) and Bea in the room, both ready: the race has begun."""
    ann = await connect(f"/ws/race/{room}/", player_cookie)
    bea = await connect(f"/ws/race/{room}/", rival_cookie)
    await frame_of(ann, "room")
    first = await frame_of(bea, "room")
    assert [e["name"] for e in first["entries"]] == ["Ann"] and first["status"] == "lobby"
    await bea.send_json_to({"type": "join"})
    joined = await room_until(ann, lambda f: len(f["entries"]) == 2)
    assert joined["status"] == "lobby"
    for socket in (ann, bea):
        await socket.send_json_to({"type": "ready", "ready": True})
    counting = await room_until(bea, lambda f: f["status"] == "running")
    assert counting["starts_at"] and not counting["started"]
    started = await room_until(bea, lambda f: f["started"] and entry(f, "Bea")["game"])
    return ann, bea, started


async def test_two_players_race_a_deal_to_the_end(
    player, rival, player_cookie, rival_cookie, winnable
):
    code, plan = winnable
    room = await new_room(player, code)
    ann, bea, started = await lobby_of_two(player_cookie, rival_cookie, room)
    assert started["code"] == code and started["me"] == (await _pk(rival))
    ann_game, bea_game = entry(started, "Ann")["game"], entry(started, "Bea")["game"]
    assert await _clocks(ann_game, bea_game) == 1  # both clocks start at one instant

    ann_board = await open_socket(h2h_site.asgi.application, code, player_cookie)
    greeting = await ann_board.receive_json_from()
    assert greeting["game"]["id"] == ann_game and not greeting["game"]["ranked"]
    for seq, action in enumerate(plan, start=1):
        await ann_board.send_json_to({"type": "tap", "seq": seq, "target": action})
        await ann_board.receive_json_from()
    progress, won = [], None
    while won is None or progress[-1]["status"] == "playing":
        frame = await bea.receive_json_from()
        if frame["type"] == "progress":
            progress.append(frame)
        elif entry(frame, "Ann")["status"] == "won":
            won = frame
    assert won["status"] == "running" and entry(won, "Ann")["place"] == 1
    ann_id = await _pk(player)
    assert all(p["player"] == ann_id for p in progress)
    won_now = {"status": "won", "state": "won", "heart_left": 0, "score": 250}
    assert progress[-1] | won_now == progress[-1]
    assert all(p["state"] == "playing" for p in progress[:-1])  # the row's word, as sent
    left = [p["heart_left"] for p in progress]
    assert all(a >= b for a, b in zip(left, left[1:], strict=False))
    assert set(progress[0]) == {
        "type",
        "player",
        "status",
        "state",
        "heart_left",
        "score",
        "moves",
        "stuck",
        "duration_ms",
    }
    assert not any(reveals_stock(str(p), code) for p in progress)

    bea_board = await open_socket(h2h_site.asgi.application, code, rival_cookie)
    assert (await bea_board.receive_json_from())["game"]["id"] == bea_game
    await bea_board.send_json_to({"type": "resign", "seq": 1})
    await bea_board.receive_json_from()
    final = await room_until(ann, lambda f: f["status"] == "finished")
    assert [(e["name"], e["place"], e["status"]) for e in final["entries"]] == [
        ("Ann", 1, "won"),
        ("Bea", 2, "resigned"),
    ]
    assert entry(final, "Ann")["replay_url"] == f"/replay/{ann_game}/"
    assert await _ranked_results() == 0  # a race never touches the daily ranking
    for socket in (ann, bea, ann_board, bea_board):
        await socket.disconnect()


async def test_every_socket_of_a_room_in_one_process_shares_one_timer_of_its_start(
    player, rival, player_cookie, rival_cookie, monkeypatch
):
    begins = []

    def counted(*, room):
        begins.append(races.race_begin_if_due(room=room))
        return begins[-1]

    monkeypatch.setattr(runtime_races, "race_begin_if_due", counted)
    room = await new_room(player)
    onlooker = await connect(f"/ws/race/{room}/")
    ann, bea, started = await lobby_of_two(player_cookie, rival_cookie, room)
    seen = await room_until(onlooker, lambda f: f["version"] >= started["version"])
    assert entry(seen, "Ann")["game"] and begins == [True]  # three sockets, one timer
    for socket in (ann, bea, onlooker):
        await socket.disconnect()


@database_sync_to_async
def start_instant_passed(*players) -> str:
    """A room of ready racers whose start instant passed with no process to time it."""
    room = races.race_create(player=players[0])
    for racer in players[1:]:
        races.race_join(player=racer, room=room.room)
    for racer in players:
        races.race_ready(player=racer, room=room.room, ready=True)
    RaceRoom.objects.filter(pk=room.pk).update(starts_at=timezone.now() - timedelta(seconds=5))
    return room.room


async def test_a_race_nobody_timed_begins_as_soon_as_a_socket_shows_it(player, rival):
    room = await start_instant_passed(player, rival)
    onlooker = await connect(f"/ws/race/{room}/")
    shown = await frame_of(onlooker, "room")
    assert shown["status"] == "running" and not any(e["game"] for e in shown["entries"])
    begun = await room_until(onlooker, lambda f: all(e["game"] for e in f["entries"]))
    assert begun["version"] == shown["version"] + 1
    await onlooker.disconnect()


async def test_a_racer_who_drops_rejoins_and_sees_the_race_as_it_is(
    player, rival, player_cookie, rival_cookie
):
    room = await new_room(player)
    ann, bea, started = await lobby_of_two(player_cookie, rival_cookie, room)
    code = started["code"]
    await bea.disconnect()
    ann_board = await open_socket(h2h_site.asgi.application, code, player_cookie)
    await ann_board.receive_json_from()
    await ann_board.send_json_to({"type": "tap", "seq": 1, "target": "stock"})
    assert (await ann_board.receive_json_from())["event"] == "draw"
    again = await connect(f"/ws/race/{room}/", rival_cookie)
    snapshot = await frame_of(again, "room")
    assert entry(snapshot, "Ann")["moves"] == 1 and entry(snapshot, "Bea")["status"] == "playing"
    # Joining again after the start is a rejoin, not a refusal.
    await again.send_json_to({"type": "join"})
    assert (await frame_of(again, "room"))["version"] == snapshot["version"]
    bea_board = await open_socket(h2h_site.asgi.application, code, rival_cookie)
    assert (await bea_board.receive_json_from())["game"]["id"] == entry(snapshot, "Bea")["game"]
    for socket in (ann, again, ann_board, bea_board):
        await socket.disconnect()


async def test_a_fresh_deal_shows_its_code_only_at_the_start(player, player_cookie):
    room = await new_room(player)
    socket = await connect(f"/ws/race/{room}/", player_cookie)
    frame = await frame_of(socket, "room")
    assert frame["fresh"] and frame["code"] is None
    await socket.disconnect()


async def test_onlookers_follow_a_room_but_cannot_act(player, make_player):
    room = await new_room(player)
    onlooker = await connect(f"/ws/race/{room.lower()}/")
    frame = await frame_of(onlooker, "room")
    assert frame["room"] == room and frame["me"] is None
    await onlooker.send_json_to({"type": "join"})
    assert (await onlooker.receive_json_from())["error"] == "login_required"
    await onlooker.disconnect()


@pytest.mark.parametrize(
    ("frame", "error"),
    [
        ({"type": "ready", "ready": "yes"}, "bad_ready"),
        ({"type": "leave"}, "not_in_room"),
        ({"type": "start"}, "unknown_frame"),
    ],
)
async def test_a_refused_action_gets_an_error_frame(player, rival_cookie, frame, error):
    room = await new_room(player)
    socket = await connect(f"/ws/race/{room}/", rival_cookie)
    await frame_of(socket, "room")
    await socket.send_json_to(frame)
    reply = await socket.receive_json_from()
    assert (reply["type"], reply["error"]) == ("error", error) and reply["message"]
    await socket.disconnect()


async def test_a_socket_on_no_such_room_is_told_and_closed(player_cookie):
    for room in ("nonsense", "ZZZZZZ"):
        socket = await connect(f"/ws/race/{room}/", player_cookie)
        assert (await socket.receive_json_from())["error"] == "no_such_room"
        assert (await socket.receive_output())["code"] == 4004


@database_sync_to_async
def _pk(user) -> int:
    return user.pk


@database_sync_to_async
def _clocks(*game_ids) -> int:
    return len(set(Game.objects.filter(pk__in=game_ids).values_list("started_at", flat=True)))


@database_sync_to_async
def _ranked_results() -> int:
    return Result.objects.filter(ranked=True).count()


async def test_logging_out_closes_the_room_socket(player, player_cookie):
    room = await new_room(player)
    socket = await connect(f"/ws/race/{room}/", player_cookie)
    await frame_of(socket, "room")
    layer = get_channel_layer()
    await layer.group_send(player_group(player_id=player.pk), {"type": "player.logout"})
    assert (await socket.receive_output())["code"] == CLOSE_LOGGED_OUT


async def test_a_racer_who_played_the_deal_before_may_race_it_and_everyone_sees_so(
    player, rival, player_cookie, rival_cookie
):
    await resign(rival, CODE)  # Bea knows the deal
    room = await new_room(player, CODE)
    onlooker = await connect(f"/ws/race/{room}/")
    await frame_of(onlooker, "room")
    ann, bea, started = await lobby_of_two(player_cookie, rival_cookie, room)
    seen = await room_until(onlooker, lambda f: f["version"] >= started["version"])
    for frame in (started, seen):
        assert (entry(frame, "Bea")["played_before"], entry(frame, "Ann")["played_before"]) == (
            True,
            False,  # her race game is no game before the race
        )
    page = (await database_sync_to_async(Client().get)(f"/race/{room}/")).content.decode()
    marks = re.findall(r'data-slot="played_before" title="[^"]*"( hidden)?>', page)
    assert sorted(marks) == ["", " hidden", " hidden"]  # Bea's row; Ann's, and the empty row
    for socket in (ann, bea, onlooker):
        await socket.disconnect()
