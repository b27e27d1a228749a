"""Spectating: a read-only socket that shows exactly the player's public view, move by move;
the player hears how many watch; today's deal and one's own deal stay unwatchable."""

import json

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.test import AsyncClient
from django.utils import timezone

import h2h_site.asgi
from game import engine, services
from game.models import Game
from game.services import races
from game.services.daily import daily_deal
from tests.layers import fresh_channel_layer  # noqa: F401  (an autouse fixture)
from tests.site import (
    connect,
    frame_of,
    game_log,
    open_socket,
    resign,
    reveals_stock,
    session_cookie,
    started_race,
)

pytestmark = pytest.mark.django_db(transaction=True)

CODE = "HH1-N-AAAAAAC"
OTHER_CODE = engine.format_code("N", 7)


@pytest.fixture(autouse=True)
def quick(settings):
    settings.TAP_RATE = 0


async def playing(cookie, code=CODE):
    board = await open_socket(h2h_site.asgi.application, code, cookie)
    return board, await board.receive_json_from()


async def test_a_spectator_sees_the_players_view_move_by_move(player_cookie, rival_cookie):
    board, greeting = await playing(player_cookie)
    game_id = greeting["game"]["id"]
    watcher = await connect(f"/ws/watch/{game_id}/", rival_cookie)
    first = await frame_of(watcher, "state")
    assert first["view"] == greeting["view"] and first["player"] == "Ann"
    assert "last_seq" not in first["game"] and first["game"]["id"] == game_id
    frames = [first]
    for seq, target in enumerate(["stock", "stock", "stock"], start=1):
        await board.send_json_to({"type": "tap", "seq": seq, "target": target})
        reply = await frame_of(board, "state")
        seen = await frame_of(watcher, "state")
        assert seen["view"] == reply["view"] and seen["event"] == "draw"
        frames.append(seen)
    assert not any(reveals_stock(str(frame), CODE) for frame in frames)
    await watcher.disconnect()
    await board.disconnect()


async def watching(socket, count: int) -> None:
    """Watcher counts until `count`: each frame is the whole number, so one may repeat (a tab
    opening is told the count, and may also hear the publication that changed it)."""
    while (await frame_of(socket, "watchers"))["count"] != count:
        pass


async def test_the_player_hears_how_many_watch(player_cookie, rival_cookie, make_player):
    board, greeting = await playing(player_cookie)
    game_id = greeting["game"]["id"]
    first = await connect(f"/ws/watch/{game_id}/", rival_cookie)
    await watching(board, 1)
    second = await connect(f"/ws/watch/{game_id}/")  # anyone may watch a normal deal
    await watching(board, 2)
    await watching(second, 2)
    await first.disconnect()
    await watching(board, 1)
    # A tab opened later is told at once.
    other_tab, _ = await playing(player_cookie)
    await watching(other_tab, 1)
    for socket in (second, other_tab, board):
        await socket.disconnect()


async def test_a_spectator_passes_over_the_play_sockets_own_messages(player, rival_cookie):
    game_id = await database_sync_to_async(open_game)(player)
    watcher = await connect(f"/ws/watch/{game_id}/", rival_cookie)
    first = await frame_of(watcher, "state")
    group = services.game_group(game_id=game_id)
    await get_channel_layer().group_send(group, {"type": "game.something_new"})
    await watcher.send_json_to({"type": "sync"})
    assert (await frame_of(watcher, "state"))["view"] == first["view"]
    await watcher.disconnect()


def open_game(player) -> int:
    return services.game_open(player=player, code=CODE).pk


async def test_a_spectator_cannot_play(player_cookie, rival_cookie):
    board, greeting = await playing(player_cookie)
    game_id = greeting["game"]["id"]
    watcher = await connect(f"/ws/watch/{game_id}/", rival_cookie)
    await frame_of(watcher, "state")
    before = await game_log(game_id)
    for frame in ({"type": "tap", "seq": 1, "target": "stock"}, {"type": "resign", "seq": 2}):
        await watcher.send_json_to(frame)
        assert (await frame_of(watcher, "error"))["error"] == "unknown_frame"
    await watcher.send_to(text_data="{")
    assert (await frame_of(watcher, "error"))["error"] == "bad_json"
    assert await game_log(game_id) == before
    await watcher.disconnect()
    await board.disconnect()


async def test_a_spectator_who_reconnects_starts_from_the_game_as_it_is(
    player_cookie, rival_cookie
):
    board, greeting = await playing(player_cookie)
    game_id = greeting["game"]["id"]
    watcher = await connect(f"/ws/watch/{game_id}/", rival_cookie)
    await frame_of(watcher, "state")
    await watcher.disconnect()
    await board.send_json_to({"type": "tap", "seq": 1, "target": "stock"})
    reply = await frame_of(board, "state")
    again = await connect(f"/ws/watch/{game_id}/", rival_cookie)
    assert (await frame_of(again, "state"))["view"] == reply["view"]
    await again.disconnect()
    await board.disconnect()


@database_sync_to_async
def todays_game(player) -> int:
    deal = daily_deal()
    return Game.objects.create(
        player=player, code=deal.code, daily=deal, ranked=True, started_at=timezone.now()
    ).pk


async def refusal(path, cookie=None) -> tuple[str, int]:
    socket = await connect(path, cookie)
    error = (await socket.receive_json_from())["error"]
    return error, (await socket.receive_output())["code"]


async def test_todays_deal_is_watched_only_after_ones_own_ranked_game(player, rival, rival_cookie):
    game_id = await todays_game(player)
    assert await refusal(f"/ws/watch/{game_id}/") == ("daily_locked", 4003)
    assert await refusal(f"/ws/watch/{game_id}/", rival_cookie) == ("daily_locked", 4003)
    rivals_game = await todays_game(rival)
    await database_sync_to_async(_resign)(rival, rivals_game)
    watcher = await connect(f"/ws/watch/{game_id}/", rival_cookie)
    assert (await frame_of(watcher, "state"))["game"]["id"] == game_id
    await watcher.disconnect()


def _resign(player, game_id):
    from game import services

    services.game_resign(game=services.LockedGame(game_id), player=player)


async def test_nobody_watches_a_deal_they_are_playing(player_cookie, rival_cookie):
    board, greeting = await playing(player_cookie)
    rival_board, _ = await playing(rival_cookie)
    path = f"/ws/watch/{greeting['game']['id']}/"
    assert await refusal(path, rival_cookie) == ("playing_this_deal", 4003)
    assert await refusal("/ws/watch/999999/") == ("no_such_game", 4004)
    await board.disconnect()
    await rival_board.disconnect()


async def test_a_finished_game_shows_its_end(player):
    game_id = await resign(player, CODE)
    watcher = await connect(f"/ws/watch/{game_id}/")
    frame = await frame_of(watcher, "state")
    assert frame["game"]["status"] == "resigned" and frame["game"]["result"]["won"] is False
    await watcher.disconnect()


async def test_nobody_but_its_racer_watches_or_replays_a_race_game_while_the_race_runs(
    player, player_cookie, rival, rival_cookie, make_player
):
    outsider = await database_sync_to_async(make_player)("cid")
    outsider_cookie = await database_sync_to_async(session_cookie)(outsider)
    room, games = await started_race(player, rival, code=CODE)
    await database_sync_to_async(_resign)(rival, games["bea"])  # Bea is out; Ann races on
    others = {
        "ann": (None, rival_cookie, outsider_cookie),
        "bea": (None, player_cookie, outsider_cookie),
    }
    for racer, game_id in games.items():
        for cookie in others[racer]:
            assert await refusal(f"/ws/watch/{game_id}/", cookie) == ("race_running", 4003)
    for cookie in others["bea"]:  # her stock order would help Ann, who races on
        for path in (f"/replay/{games['bea']}/", f"/replay/{games['bea']}/steps/"):
            assert (await _get(path, cookie)).status_code == 403
    assert json.loads((await _get(f"/replay/{games['bea']}/steps/")).content)["error"] == (
        "race_running"
    )
    onlooker = await connect(f"/ws/race/{room}/")
    table = (await frame_of(onlooker, "room"))["entries"]
    assert [(e["watch_url"], e["replay_url"]) for e in table] == [(None, None)] * 2
    own = await connect(f"/ws/watch/{games['ann']}/", player_cookie)
    assert (await frame_of(own, "state"))["game"]["id"] == games["ann"]  # her own, as ever
    await frame_of(own, "watchers")  # counted: SQLite's shared cache refuses a write meanwhile

    await database_sync_to_async(_resign)(player, games["ann"])  # every racer has finished
    final = (await frame_of(onlooker, "room"))["entries"]
    assert all(e["replay_url"] == f"/replay/{e['game']}/" for e in final)
    watcher = await connect(f"/ws/watch/{games['bea']}/", outsider_cookie)
    assert (await frame_of(watcher, "state"))["game"]["status"] == "resigned"
    await frame_of(watcher, "watchers")
    assert (await _get(f"/replay/{games['bea']}/steps/")).status_code == 200
    for socket in (onlooker, own, watcher):
        await socket.disconnect()


async def _get(path: str, cookie: str | None = None):
    """A page as a browser with the Cookie header `cookie` gets it."""
    client = AsyncClient()
    if cookie:
        client.cookies.load(cookie)
    return await client.get(path)


async def stopped_watching(watcher) -> None:
    """The watch socket says why and closes, and nothing of the game follows."""
    assert (await frame_of(watcher, "error"))["error"] == "playing_this_deal"
    assert (await watcher.receive_output())["code"] == 4003


async def open_on_the_play_page(cookie: str) -> None:
    assert (await _get(f"/play/{CODE}/", cookie)).status_code == 200


async def open_on_the_play_socket(cookie: str):
    return (await playing(cookie))[0]


@pytest.mark.parametrize("open_the_deal", [open_on_the_play_socket, open_on_the_play_page])
async def test_a_spectator_who_opens_the_deal_stops_watching_it_at_once(
    player_cookie, rival_cookie, open_the_deal
):
    board, greeting = await playing(player_cookie)
    other_board, other = await playing(player_cookie, OTHER_CODE)
    watcher = await connect(f"/ws/watch/{greeting['game']['id']}/", rival_cookie)
    elsewhere = await connect(f"/ws/watch/{other['game']['id']}/", rival_cookie)
    for socket in (watcher, elsewhere):
        await frame_of(socket, "watchers")  # counted: no write of it is still under way
    rival_board = await open_the_deal(rival_cookie)
    await stopped_watching(watcher)
    await board.send_json_to({"type": "tap", "seq": 1, "target": "stock"})
    await frame_of(board, "state")
    assert await watcher.receive_nothing()
    await elsewhere.send_json_to({"type": "sync"})  # another deal's game: still watched
    assert (await frame_of(elsewhere, "state"))["game"]["id"] == other["game"]["id"]
    for socket in (board, other_board, watcher, elsewhere, rival_board):
        if socket is not None:
            await socket.disconnect()


async def test_a_spectator_who_enters_a_race_of_the_deal_stops_watching_it(
    player, player_cookie, rival, rival_cookie
):
    board, greeting = await playing(player_cookie)
    path = f"/ws/watch/{greeting['game']['id']}/"
    watcher = await connect(path, rival_cookie)
    await frame_of(watcher, "watchers")
    room = await database_sync_to_async(races.race_create)(player=rival, code=CODE)
    await stopped_watching(watcher)
    assert await refusal(path, rival_cookie) == ("playing_this_deal", 4003)
    await database_sync_to_async(races.race_leave)(player=rival, room=room.room)
    again = await connect(path, rival_cookie)  # out of the lobby: free to watch again
    assert (await frame_of(again, "state"))["game"]["id"] == greeting["game"]["id"]
    for socket in (board, watcher, again):
        await socket.disconnect()
