"""Watching and replaying pages: a spectator sees the player's view and nothing more, a replay
starts at the deal, and the boards and player pages link both and carry the live hooks."""

import pytest
from django.conf import settings
from django.test import Client

from game import engine, services
from tests.site import json_script, logged_in, reveals_stock

pytestmark = pytest.mark.django_db

CODE = "HH1-N-AAAAAAC"


@pytest.fixture(autouse=True)
def english(settings):
    settings.LANGUAGE_CODE = "en"


@pytest.fixture
def played(player):
    """A game of the player's with a few moves: open, not yet finished."""
    game = services.game_open(player=player, code=CODE)
    for seq in range(1, 4):
        services.game_tap(game=services.LockedGame(game.pk), player=player, seq=seq, target="stock")
    return game


def test_the_watch_page_shows_the_players_view_and_nothing_more(played, rival):
    page = logged_in(rival).get(f"/watch/{played.pk}/").content.decode()
    snapshot = json_script(page, "watch-snapshot")
    stored = engine.replay(CODE, ["stock"] * 3, key=settings.DEAL_KEY)
    assert snapshot["view"] == engine.public_view(stored)
    assert snapshot["player"] == "Ann" and "last_seq" not in snapshot["game"]
    assert f'data-ws-path="/ws/watch/{played.pk}/"' in page
    assert not reveals_stock(page, CODE)


def test_the_replay_page_starts_at_the_deal_and_links_its_steps(played, player):
    services.game_resign(game=services.LockedGame(played.pk), player=player)
    page = Client().get(f"/replay/{played.pk}/").content.decode()
    steps = json_script(page, "replay-steps")
    assert steps["total"] == 4 and steps["steps"][0]["view"]["stock"] == 26
    assert f'data-steps-url="/replay/{played.pk}/steps/"' in page


def test_an_open_game_is_watched_not_replayed(played):
    response = Client().get(f"/replay/{played.pk}/")
    assert response.status_code == 409 and "watch it live" in response.content.decode()
    assert Client().get(f"/replay/{played.pk}/steps/").status_code == 409
    assert Client().get("/watch/999999/").status_code == 404


def test_boards_and_player_pages_link_replays_and_live_games(played, player, rival):
    finished = services.game_open(player=rival, code=CODE)
    services.game_resign(game=services.LockedGame(finished.pk), player=rival)
    board = Client().get(f"/leaderboard/deal/{CODE}/").content.decode()
    assert f'href="/replay/{finished.pk}/"' in board and 'data-live-ws="/ws/live/deal/' in board
    assert f'<tr data-id="{finished.result.pk}"' in board
    page = Client().get("/players/Ann/").content.decode()
    assert f'href="/watch/{played.pk}/"' in page
    assert f'href="/replay/{finished.pk}/"' in Client().get("/players/Bea/").content.decode()


def test_the_home_page_and_todays_board_carry_the_live_hooks(client):
    home = client.get("/").content.decode()
    assert 'data-live-ws="/ws/live/home/"' in home and "data-playing" in home
    assert "playing now" in home and "/race/" in home
    daily = client.get("/leaderboard/daily/").content.decode()
    assert "data-daily-list" in daily and 'data-live-ws="/ws/live/daily/' in daily
    assert (
        'data-live-ws="/ws/live/all-time/"' in client.get("/leaderboard/all-time/").content.decode()
    )
