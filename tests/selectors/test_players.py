"""A player's page: the player by their display name, and their latest games."""

import datetime

import pytest
from django.utils import timezone

from game import engine
from game.models import Game
from game.selectors.players import RECENT_GAMES, profile_named, recent_games
from tests.selectors.history import finish

pytestmark = pytest.mark.django_db

CODE = "HH1-N-AAAAAAC"


def test_a_profile_is_found_by_its_display_name_only(player):
    assert profile_named("Ann").user == player
    assert profile_named("ann") is None and profile_named("Bea") is None


def test_the_recent_games_are_the_players_own_newest_first_with_their_results(player, rival):
    finished = finish(player).game
    newer = Game.objects.create(player=player, code=CODE, started_at=timezone.now())
    finish(rival)
    games = recent_games(player)
    assert games == [newer, finished]
    assert games[1].result.score == 250 and not games[0].abandoned


def test_the_recent_games_stop_at_their_number(player):
    start = timezone.now()
    Game.objects.bulk_create(
        Game(
            player=player,
            code=engine.format_code("N", n),
            started_at=start + datetime.timedelta(minutes=n),
        )
        for n in range(RECENT_GAMES + 1)
    )
    games = recent_games(player)
    assert len(games) == RECENT_GAMES
    assert games[-1].started_at == start + datetime.timedelta(minutes=1)  # the oldest left out
