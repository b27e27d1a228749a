"""The open games (game.runtime.open_games): the state in memory never outranks the stored log.

A second process is played by a second LiveGame of the same game, loaded on its own; a page
writing meanwhile by the same use cases on the game's locked row (services.LockedGame).
"""

import asyncio
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from django.conf import settings
from django.db import OperationalError
from django.test import Client

import h2h_site.asgi
from game import engine, services
from game.domain.errors import GameError
from game.runtime import open_games
from game.selectors import results
from game.services import play
from game.storage.dbthread import on_db_thread
from tests.site import game_log, open_socket

pytestmark = pytest.mark.django_db(transaction=True)

CODE = "HH1-N-AAAAAAC"  # tip 4, waste 9; the tip is free at the start


async def opened(player, channel="tab-1"):
    return await open_games.live_open(player=player, code=CODE, channel=channel)


async def elsewhere(game_id: int):
    """The same game as another server process sees it: loaded on its own."""
    return await open_games._load(game_id=game_id)


async def test_a_tap_that_stores_nothing_writes_nothing(player):
    game = await opened(player)
    reply = await services.game_tap(game=game, player=player, seq=1, target=25)
    assert reply.event == "selected" and reply.game is None and reply.news is None
    assert await game_log(game.id) == (0, 0, [])
    open_games.live_close(game, channel="tab-1")


async def test_a_move_is_stored_before_its_reply(player):
    game = await opened(player)
    reply = await services.game_tap(game=game, player=player, seq=1, target="stock")
    assert reply.event == "draw" and reply.game["last_seq"] == 1
    assert await game_log(game.id) == (1, 1, ["stock"])
    assert reply.news["count"] == 1 and reply.news["view"]["selected"] is None
    open_games.live_close(game, channel="tab-1")


async def test_two_processes_tapping_one_game_leave_one_valid_log(player):
    first = await opened(player)
    second = await elsewhere(first.id)
    await services.game_tap(game=first, player=player, seq=1, target="stock")
    reply = await services.game_tap(game=second, player=player, seq=2, target="stock")  # stale
    assert reply.event == "draw" and reply.view["moves"] == 2
    reply = await services.game_tap(game=first, player=player, seq=3, target="stock")  # stale too
    assert reply.view["moves"] == 3 and reply.game["last_seq"] == 3
    last_seq, count, actions = await game_log(first.id)
    assert (last_seq, count, actions) == (3, 3, ["stock"] * 3)
    stored = engine.replay(CODE, actions, key=settings.DEAL_KEY)
    assert engine.public_view(stored) == reply.view
    open_games.live_close(first, channel="tab-1")


def test_processes_tapping_one_game_at_once_store_each_move_once(player):
    """Each process has its own event loop, its own LiveGame of the game and its own group
    commits; the stored log decides between them."""
    game_id = services.game_open(player=player, code=CODE).pk
    all_loaded = threading.Barrier(8)

    async def a_process_draws(seq: int):
        game = await elsewhere(game_id)
        await asyncio.to_thread(all_loaded.wait)
        try:
            reply = await services.game_tap(game=game, player=player, seq=seq, target="stock")
        except GameError as error:
            return error.code
        return reply.event

    with ThreadPoolExecutor(8) as processes:
        replies = list(processes.map(lambda seq: asyncio.run(a_process_draws(seq)), range(1, 9)))
    errors = [reply for reply in replies if reply != "draw"]
    last_seq, count, actions = async_to_sync(game_log)(game_id)
    assert count == 8 - len(errors) >= 1 and actions == ["stock"] * count
    assert set(errors) <= {"duplicate_seq"}
    assert engine.replay(CODE, actions, key=settings.DEAL_KEY).moves == count


async def test_a_seq_stored_by_another_process_is_a_duplicate_here(player):
    first = await opened(player)
    second = await elsewhere(first.id)
    await services.game_tap(game=second, player=player, seq=7, target="stock")
    with pytest.raises(GameError) as caught:
        await services.game_tap(game=first, player=player, seq=7, target="stock")
    assert caught.value.code == "duplicate_seq"
    assert await game_log(first.id) == (7, 1, ["stock"])
    open_games.live_close(first, channel="tab-1")


async def test_a_page_resigning_the_game_ends_it_for_the_sockets_too(player):
    game = await opened(player)
    resign = database_sync_to_async(services.game_resign)
    await resign(game=services.LockedGame(game.id), player=player, seq=4)
    open_games.live_heard(game, {"origin": "page", "event": "resign"})  # its publication arrives
    with pytest.raises(GameError) as caught:
        await services.game_tap(game=game, player=player, seq=5, target="stock")
    assert caught.value.code == "game_over"
    open_games.live_close(game, channel="tab-1")


async def test_a_move_lost_to_a_page_is_not_stored_twice(player):
    """No publication arrives in time: the conditional write itself finds the page's move."""
    game = await opened(player)
    tap = database_sync_to_async(services.game_tap)
    await tap(game=services.LockedGame(game.id), player=player, seq=1, target="stock")
    reply = await services.game_tap(game=game, player=player, seq=2, target="stock")
    assert reply.view["moves"] == 2
    assert await game_log(game.id) == (2, 2, ["stock", "stock"])
    open_games.live_close(game, channel="tab-1")


async def test_news_from_this_process_older_than_the_game_is_not_shown(player):
    game = await opened(player)
    old = (await services.game_tap(game=game, player=player, seq=1, target="stock")).news
    new = (await services.game_tap(game=game, player=player, seq=2, target="stock")).news
    assert not open_games.live_heard(game, {"origin": "x", **old}) and not game.stale
    assert open_games.live_heard(game, {"origin": "x", **new}) and not game.stale
    open_games.live_close(game, channel="tab-1")


async def test_the_last_socket_out_drops_the_game_from_memory(player):
    game = await opened(player, "tab-1")
    assert await opened(player, "tab-2") is game
    open_games.live_close(game, channel="tab-1")
    assert open_games._games.get(game.id) is game
    open_games.live_close(game, channel="tab-2")
    assert game.id not in open_games._games


async def next_state(socket) -> dict:
    while (frame := await socket.receive_json_from()).get("type") != "state":
        pass
    return frame


async def test_a_page_ending_a_game_a_socket_plays_ends_it_for_that_socket(player, player_cookie):
    """The real application and the real page: one log, whichever way a move came in."""
    socket = await open_socket(h2h_site.asgi.application, CODE, player_cookie)
    game_id = (await next_state(socket))["game"]["id"]
    await socket.send_json_to({"type": "tap", "seq": 1, "target": "stock"})
    assert (await next_state(socket))["event"] == "draw"
    page = Client()
    await database_sync_to_async(page.force_login)(player)
    response = await database_sync_to_async(page.post)("/play/new/", {"ending": game_id})
    assert response.status_code == 302
    heard = await next_state(socket)  # the page's resignation, published once it committed
    assert heard["event"] == "resign" and heard["game"]["status"] == "resigned"
    await socket.send_json_to({"type": "tap", "seq": 2, "target": "stock"})
    refused = await socket.receive_json_from()
    assert refused["type"] == "error" and refused["error"] == "game_over"
    assert await game_log(game_id) == (1, 1, ["stock"])
    await socket.disconnect()


async def test_a_daily_ended_elsewhere_is_reloaded_without_its_standing_and_shown_with_it(
    player, monkeypatch
):
    """A reload only learns that the game ended (the end window came with the move that ended
    it); a socket that connects later is shown the day's standing all the same."""
    daily_game = await database_sync_to_async(services.game_daily_open)(player=player)
    first = await open_games.live_open(player=player, code=daily_game.code, channel="tab-1")
    await services.game_start(game=first, player=player, seq=1)
    resign = database_sync_to_async(services.game_resign)
    assert (await resign(game=services.LockedGame(first.id), player=player, seq=2)).game["result"][
        "daily"
    ]
    standings = []
    monkeypatch.setattr(results, "daily_finish", lambda **kw: standings.append(kw) or {"n": 1})
    with pytest.raises(GameError) as caught:
        await services.game_tap(game=first, player=player, seq=3, target="stock")  # a stale write
    assert caught.value.code == "game_over" and standings == []
    second = await open_games.live_open(player=player, code=daily_game.code, channel="tab-2")
    assert second is first and first.snapshot()["game"]["result"]["daily"] == {"n": 1}
    for channel in ("tab-1", "tab-2"):
        open_games.live_close(first, channel=channel)


async def test_a_move_the_database_refuses_is_storage_unavailable_and_the_log_is_read_again(
    player, monkeypatch
):
    game = await opened(player)
    assert (
        await services.game_tap(game=game, player=player, seq=1, target="stock")
    ).event == "draw"

    def stored_then_lost(*arguments):  # the commit went through, its answer did not
        play.store(*arguments)
        raise OperationalError("server closed the connection unexpectedly")

    monkeypatch.setattr(open_games, "_store", on_db_thread(stored_then_lost))
    with pytest.raises(GameError) as refused:
        await services.game_resign(game=game, player=player, seq=2)
    assert refused.value.code == "storage_unavailable" and game.stale
    assert game.status == "open"  # what memory knew: not to be trusted now
    with pytest.raises(GameError) as again:
        await services.game_resign(game=game, player=player, seq=2)
    assert again.value.code == "duplicate_seq"  # the log, read again, has it
    assert (game.status, game.count, game.last_seq) == ("resigned", 1, 2)
    open_games.live_close(game, channel="tab-1")
