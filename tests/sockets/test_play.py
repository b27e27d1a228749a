"""Playing over the socket: a whole won game, other tabs, undo, resign, settings, resuming."""

import importlib
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from channels.layers import channel_layers
from django.test import Client
from django.utils import timezone

import h2h_site.asgi
from game import engine, services
from game.models import Game, RaceRoom, Result
from game.selectors.results import result_rank
from game.services import races
from tests.site import frame_of, game_log, greeted, open_socket, reveals_stock, send, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)

CODE = "HH1-N-AAAAAAC"


async def connected(cookie, code=CODE, app=None):
    return await greeted(cookie, code, app)


@database_sync_to_async
def result_of(game_id):
    result = Result.objects.get(game_id=game_id)
    return result, result_rank(result=result)


async def test_a_whole_game_won_over_the_socket_is_recorded_and_ranked(
    player_cookie, winnable, settings
):
    settings.TAP_RATE = 0  # faster than any hand: no rate limit
    code, plan = winnable
    socket, first = await connected(player_cookie, code)
    frames = [first]
    for seq, action in enumerate(plan, start=1):
        frames.append(await send(socket, {"type": "tap", "seq": seq, "target": action}))
        assert frames[-1]["type"] == "state" and frames[-1]["seq"] == seq
    last = frames[-1]
    assert last["event"] == "pair" and last["view"]["won"] and last["view"]["score"] == 250
    assert last["game"]["status"] == "won"
    assert last["game"]["result"] | {"won": True, "rank": 1, "of": 1} == last["game"]["result"]
    result, rank = await result_of(first["game"]["id"])
    assert (result.won, result.score, result.moves) == (True, 250, last["view"]["moves"])
    assert rank == {"rank": 1, "of": 1, "board": "deal"}
    assert not any(reveals_stock(str(frame), code) for frame in frames)
    await socket.send_json_to({"type": "tap", "seq": len(plan) + 1, "target": "stock"})
    after = await frame_of(socket, "error")  # past the deal's par, pushed once computed
    assert after["error"] == "game_over"
    await socket.disconnect()


async def test_undo_and_settings_over_the_socket(player_cookie):
    socket, first = await connected(player_cookie)
    assert (await send(socket, {"type": "tap", "seq": 1, "target": "stock"}))["event"] == "draw"
    frame = await send(socket, {"type": "undo", "seq": 2})
    assert frame["event"] == "undo" and frame["view"]["undos"] == 1 and frame["game"]
    frame = await send(socket, {"type": "settings", "seq": 3, "placement_help": False})
    assert frame["event"] == "settings" and frame["game"]["placement_help"] is False
    frame = await send(socket, {"type": "settings", "seq": 4, "placement_help": False})
    assert frame["event"] == "settings" and "game" not in frame
    assert await game_log(first["game"]["id"]) == (3, 3, ["stock", "undo", "help-off"])
    await socket.disconnect()


async def test_resigning_over_the_socket_completes_the_game(player_cookie):
    socket, first = await connected(player_cookie)
    frame = await send(socket, {"type": "resign", "seq": 1})
    assert frame["event"] == "resign" and frame["game"]["status"] == "resigned"
    assert frame["game"]["result"]["won"] is False
    await socket.send_json_to({"type": "undo", "seq": 2})
    assert (await frame_of(socket, "error"))["error"] == "game_over"  # past the deal's par
    await socket.disconnect()
    socket, again = await connected(player_cookie)
    assert again["game"]["id"] == first["game"]["id"] and again["game"]["result"]
    await socket.disconnect()


async def test_a_second_tab_sees_each_move_and_the_sender_only_its_reply(player_cookie):
    tab, first = await connected(player_cookie)
    other, same = await connected(player_cookie)
    assert same["game"]["id"] == first["game"]["id"]
    assert (await send(tab, {"type": "tap", "seq": 1, "target": 25}))["event"] == "selected"
    assert await other.receive_nothing()  # a selection stays in its own tab
    reply = await send(tab, {"type": "tap", "seq": 2, "target": "stock"})
    seen = await other.receive_json_from()
    assert seen["type"] == "state" and "seq" not in seen and seen["event"] == "draw"
    assert seen["view"] == reply["view"] and seen["game"]["last_seq"] == 2
    assert await tab.receive_nothing()
    stale = await send(other, {"type": "tap", "seq": 2, "target": "stock"})
    assert stale["error"] == "duplicate_seq"
    assert (await send(other, {"type": "tap", "seq": 3, "target": "stock"}))["event"] == "draw"
    assert (await tab.receive_json_from())["game"]["last_seq"] == 3
    await tab.disconnect()
    await other.disconnect()


async def test_a_game_resumes_when_the_application_is_recreated(player_cookie):
    socket, first = await connected(player_cookie)
    await send(socket, {"type": "tap", "seq": 1, "target": "stock"})
    await send(socket, {"type": "tap", "seq": 2, "target": "stock"})
    before = await send(socket, {"type": "tap", "seq": 3, "target": 25})
    await socket.disconnect()
    # A restarted server: a new application and channel layer; only the database stays.
    # (The consumer keeps nothing at module or class level, so its module need not reload.)
    channel_layers.backends.clear()
    importlib.reload(h2h_site.asgi)
    socket, again = await connected(player_cookie, app=h2h_site.asgi.application)
    assert again["game"]["id"] == first["game"]["id"] and again["game"]["last_seq"] == 2
    assert again["view"] == before["view"] | {"selected": None}
    assert again["view"]["moves"] == 2
    frame = await send(socket, {"type": "tap", "seq": 4, "target": "stock"})
    assert frame["event"] == "draw" and frame["view"]["moves"] == 3
    await socket.disconnect()


# The ranked daily over the socket: nothing shown before Start, and no play after midnight.


@database_sync_to_async
def todays_ranked_code(player) -> str:
    return services.game_daily_open(player=player).code


@database_sync_to_async
def stored_game(player, code):
    return Game.objects.get(player=player, code=code, ranked=True)


async def test_the_ranked_daily_shows_no_card_until_start_and_a_reload_resumes_it(
    player, player_cookie
):
    code = await todays_ranked_code(player)
    socket, first = await connected(player_cookie, code)
    assert first["view"]["heart"] is None and first["view"]["waste"]["top"] is None
    assert first["game"] | {"started_at": None, "awaiting_start": True} == first["game"]
    assert not reveals_stock(str(first), code)
    for frame in (
        {"type": "tap", "seq": 1, "target": "stock"},
        {"type": "undo", "seq": 2},
        {"type": "resign", "seq": 3},
        {"type": "settings", "seq": 4, "placement_help": False},
    ):
        assert (await send(socket, frame))["error"] == "not_started"
    start = await send(socket, {"type": "start", "seq": 5})
    assert start["type"] == "state" and start["event"] == "start" and start["seq"] == 5
    assert len(start["view"]["heart"]) == 25 and start["game"]["awaiting_start"] is False
    game = await stored_game(player, code)
    assert start["game"]["started_at"] == game.started_at.isoformat() and game.action_count == 0
    again = await send(socket, {"type": "start", "seq": 6})  # harmless: the state again
    assert again["event"] == "start" and again["game"]["started_at"] == game.started_at.isoformat()
    assert (await send(socket, {"type": "tap", "seq": 7, "target": "stock"}))["event"] == "draw"
    await socket.disconnect()
    socket, resumed = await connected(player_cookie, code)
    assert resumed["game"]["started_at"] == game.started_at.isoformat()
    assert resumed["view"]["moves"] == 1 and len(resumed["view"]["heart"]) == 25
    await socket.disconnect()


async def test_a_hostile_page_opening_the_daily_starts_no_clock(player, player_cookie):
    # What a pop-up from another site can make the player's browser do: load the pages, and
    # try the socket (whose handshake checks the origin before any frame).
    pages = await database_sync_to_async(hostile_page_loads)(player)
    code = pages.code
    hostile = await open_socket(
        h2h_site.asgi.application, code, player_cookie, origin=b"http://evil.example"
    )
    assert not hostile.connected
    socket, first = await connected(player_cookie, code)  # even the player's own board
    assert first["game"]["awaiting_start"] and first["view"]["heart"] is None
    await socket.disconnect()
    assert (await stored_game(player, code)).started_at is None


def hostile_page_loads(player):
    client = Client()
    client.force_login(player)
    assert client.get("/daily/").status_code == 200
    game = Game.objects.get(player=player, ranked=True)
    assert client.get(f"/play/{game.code}/").status_code == 200
    return game


async def test_a_game_left_open_past_midnight_cannot_be_finished_as_ranked(
    before_midnight, player, settings
):
    settings.TAP_RATE = 0  # the attacker's taps come as fast as they like
    cookie = await database_sync_to_async(session_cookie)(player)
    code = await todays_ranked_code(player)
    plan = engine.solve(code, key=settings.DEAL_KEY)
    socket, _ = await connected(cookie, code)
    await send(socket, {"type": "start", "seq": 1})
    for seq, action in enumerate(plan[:-1], start=2):
        reply = await send(socket, {"type": "tap", "seq": seq, "target": action})
        assert reply["type"] == "state"
    before_midnight.move_to(before_midnight.midnight + timedelta(minutes=1))
    # After midnight (when the day's winners' replays open) the last pair must not count.
    last = await send(socket, {"type": "tap", "seq": len(plan) + 1, "target": plan[-1]})
    assert last["type"] == "error" and last["error"] == "day_over"
    ended = await socket.receive_json_from()  # the game's listeners hear how it ended
    assert ended["event"] == "day_over" and ended["game"]["status"] == "resigned"
    again = await send(socket, {"type": "tap", "seq": len(plan) + 2, "target": plan[-1]})
    assert again["error"] == "day_over"
    await socket.disconnect()
    result, _ = await result_of((await stored_game(player, code)).pk)
    assert result.ranked and not result.won and result.score < 250
    assert result.finished_at == before_midnight.midnight
    socket, reloaded = await connected(cookie, code)
    assert reloaded["game"]["status"] == "resigned" and not reloaded["view"]["won"]
    assert (await send(socket, {"type": "tap", "seq": 999, "target": plan[-1]}))["error"] == (
        "day_over"
    )
    await socket.disconnect()


async def test_a_socket_connecting_after_midnight_ends_the_days_game(before_midnight, player):
    cookie = await database_sync_to_async(session_cookie)(player)
    code = await todays_ranked_code(player)
    socket, _ = await connected(cookie, code)
    await send(socket, {"type": "start", "seq": 1})
    await send(socket, {"type": "tap", "seq": 2, "target": "stock"})
    await socket.disconnect()
    before_midnight.move_to(before_midnight.midnight)
    socket, first = await connected(cookie, code)
    assert first["game"]["status"] == "resigned" and first["game"]["result"]["board"] == "daily"
    await socket.disconnect()


async def refused(cookie, code) -> tuple[str, int]:
    socket = await open_socket(h2h_site.asgi.application, code, cookie)
    error = (await socket.receive_json_from())["error"]
    return error, (await socket.receive_output())["code"]


async def test_a_racer_waiting_in_a_lobby_cannot_open_its_deal_until_the_start(
    player, rival, rival_cookie
):
    room = await database_sync_to_async(races.race_create)(player=player, code=CODE)
    await database_sync_to_async(races.race_join)(player=rival, room=room.room)
    for code in (CODE, CODE.lower()):  # a typed variant of the code is the same deal
        assert await refused(rival_cookie, code) == ("race_lobby", 4003)
    assert await database_sync_to_async(Game.objects.filter(code=CODE).count)() == 0
    socket, other_deal = await connected(rival_cookie, "HH1-N-AAAAAAD")
    assert other_deal["game"]["code"] == "HH1-N-AAAAAAD"  # other deals are open as ever
    await socket.disconnect()
    await database_sync_to_async(_started)(room, player, rival)
    socket, race_game = await connected(rival_cookie)
    assert race_game["game"]["started_at"] == await _start_of(room)
    await socket.disconnect()


def _started(room, *racers) -> None:
    for racer in racers:
        races.race_ready(player=racer, room=room.room, ready=True)
    RaceRoom.objects.filter(pk=room.pk).update(starts_at=timezone.now())
    races.race_begin_if_due(room=room.room)


@database_sync_to_async
def _start_of(room) -> str:
    return RaceRoom.objects.get(pk=room.pk).starts_at.isoformat()
