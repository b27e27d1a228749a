"""Racing a ghost over the play socket: the ghost's progress numbers on the server's clock from
the player's first move, never a card or a tap; who won at the end; and the ghosts a player may
not race refused with their code, opening no game."""

import pytest
from channels.db import database_sync_to_async

from game import services
from game.models import DailyDeal, Game, RatingChange
from game.runtime.ghosts import ghost_frame
from game.selectors import daily
from game.selectors.ghosts import ghost_of
from tests.selectors.test_ghosts import played, to_first_pair
from tests.site import connect, frame_of, reveals_stock

pytestmark = pytest.mark.django_db(transaction=True)

GHOST_KEYS = {"type", "t_ms", "heart_left", "score", "moves"}


@pytest.fixture(autouse=True)
def quick(settings):
    settings.TAP_RATE = 0


@database_sync_to_async
def recorded(player, code: str, actions, *, every_s: float):
    """The player's finished game of `code`: `actions` tapped `every_s` apart, then resigned.
    Its row, read with what a ghost needs."""
    return played(player, code, actions, every_s=every_s, resign=True)


async def ghost_socket(cookie: str, code: str, ghost_id) -> tuple:
    socket = await connect(f"/ws/play/{code}/?ghost={ghost_id}", cookie)
    return socket, await frame_of(socket, "state")


async def test_the_ghost_plays_back_from_the_players_first_move(
    player, player_cookie, rival, winnable
):
    code, plan = winnable
    ghost_game = await recorded(rival, code, plan[:10], every_s=0.05)
    ghost = await database_sync_to_async(ghost_of)(game=ghost_game)
    socket, greeting = await ghost_socket(player_cookie, code, ghost_game.pk)
    waiting = await frame_of(socket, "ghost")
    assert waiting == ghost_frame(ghost.timeline[0])  # at the start until the first move
    await socket.send_json_to({"type": "tap", "seq": 1, "target": "stock"})
    frames = []
    while not frames or frames[-1]["t_ms"] < ghost.last.t_ms:
        frame = await socket.receive_json_from(timeout=3)
        if frame["type"] == "ghost":
            frames.append(frame)
    assert all(set(frame) == GHOST_KEYS for frame in frames)  # progress numbers only
    assert frames[-1] == ghost_frame(ghost.last)
    shown = [tuple(frame.values()) for frame in frames]
    assert shown == sorted(shown, key=lambda values: values[1])  # in the ghost's own order
    assert {tuple(frame.values())[1:] for frame in frames} <= set(ghost.timeline)
    assert not any(reveals_stock(str(frame), code) for frame in [waiting, *frames])
    await socket.disconnect()


async def test_the_race_ends_with_the_players_game_and_says_who_won(
    player, player_cookie, rival, winnable
):
    code, plan = winnable
    ghost_game = await recorded(rival, code, to_first_pair(code, plan), every_s=0.01)
    socket, _ = await ghost_socket(player_cookie, code, ghost_game.pk)
    await socket.send_json_to({"type": "resign", "seq": 1})
    end = await frame_of(socket, "ghost_end")
    assert end["winner"] == "ghost" and end["score"] > 0 and end["heart_left"] < 25
    assert set(end) == GHOST_KEYS | {"winner"}
    await socket.disconnect()
    again, _ = await ghost_socket(player_cookie, code, ghost_game.pk)
    assert (await frame_of(again, "ghost_end"))["winner"] == "ghost"  # a reload says it too
    await again.disconnect()


@database_sync_to_async
def practice_only(player_id: int, code: str) -> bool:
    games = Game.objects.filter(player_id=player_id, code=code)
    rated = RatingChange.objects.filter(player_id=player_id).exists()
    return games.exists() and not games.filter(ranked=True).exists() and not rated


async def test_a_ghost_race_is_practice(player, player_cookie, rival, winnable):
    code, plan = winnable
    ghost_game = await recorded(rival, code, plan[:4], every_s=0.01)
    socket, greeting = await ghost_socket(player_cookie, code, ghost_game.pk)
    assert greeting["game"]["ranked"] is False
    await socket.send_json_to({"type": "resign", "seq": 1})
    await frame_of(socket, "ghost_end")
    assert await practice_only(player.pk, code)
    await socket.disconnect()


@database_sync_to_async
def todays_ghost(rival) -> int:
    deal = DailyDeal.objects.create(date=daily.daily_today(), code="HH1-D-AAAAAAB")
    game = services.game_daily_open(player=rival)
    services.game_start(game=services.LockedGame(game.pk), player=rival, seq=1)
    services.game_resign(game=services.LockedGame(game.pk), player=rival, seq=2)
    assert deal.code == game.code
    return game.pk


@database_sync_to_async
def games_of(player) -> int:
    return Game.objects.filter(player=player).count()


async def test_todays_ghost_is_refused_before_the_players_ranked_game_and_opens_no_game(
    player, player_cookie, rival
):
    ghost_id = await todays_ghost(rival)
    socket = await connect(f"/ws/play/HH1-D-AAAAAAB/?ghost={ghost_id}", player_cookie)
    frame = await socket.receive_json_from()
    assert (frame["error"], frame["seq"]) == ("ghost_daily_locked", None) and frame["message"]
    assert (await socket.receive_output())["code"] == 4003
    assert await games_of(player) == 0  # no ranked game was opened under a ghost


@pytest.mark.parametrize("typed", ["nonsense", "999999", "0"])
async def test_a_ghost_that_is_none_is_told_and_closed(player, player_cookie, typed):
    socket = await connect(f"/ws/play/HH1-N-AAAAAAC/?ghost={typed}", player_cookie)
    frame = await socket.receive_json_from()
    assert frame["error"] == "no_such_ghost" and frame["message"]
    assert (await socket.receive_output())["code"] == 4004
