"""Who may watch a game, and what a spectator is sent: the player's public view, never more."""

import datetime

import pytest
from django.contrib.auth.models import AnonymousUser
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from game import services
from game.domain.errors import WatchError
from game.models import DailyDeal, Game
from game.selectors import daily
from game.selectors.watching import (
    game_to_watch,
    player_name,
    spectator_game,
    spectator_snapshot,
    watch_refusal,
)
from tests.selectors.history import finish

pytestmark = pytest.mark.django_db

CODE = "HH1-N-AAAAAAC"


def todays_game(player) -> Game:
    deal = DailyDeal.objects.get_or_create(date=daily.daily_today(), code="HH1-D-AAAAAAB")[0]
    return Game.objects.create(
        player=player, code=deal.code, daily=deal, ranked=True, started_at=timezone.now()
    )


def test_a_spectators_second_snapshot_of_an_unchanged_game_reads_only_its_row(player, rival):
    game = services.game_open(player=player, code=CODE)
    services.game_tap(game=services.LockedGame(game.pk), player=player, seq=1, target="stock")
    first = spectator_snapshot(game_id=game.pk)
    with CaptureQueriesContext(connection) as captured:
        again = spectator_snapshot(game_id=game.pk)
    assert len(captured) == 1 and again["game"]["server_now"] >= first["game"]["server_now"]
    assert again == first | {"game": first["game"] | {"server_now": again["game"]["server_now"]}}
    services.game_tap(game=services.LockedGame(game.pk), player=player, seq=2, target="stock")
    assert spectator_snapshot(game_id=game.pk)["view"]["moves"] == 2
    services.game_resign(game=services.LockedGame(game.pk), player=player, seq=3)
    assert spectator_snapshot(game_id=game.pk)["game"]["result"]["of"] == 1
    other = services.game_open(player=rival, code=CODE)
    # another result of the deal: a rank
    services.game_resign(game=services.LockedGame(other.pk), player=rival)
    assert spectator_snapshot(game_id=game.pk)["game"]["result"]["of"] == 2


def test_a_spectators_snapshot_names_the_player_and_keeps_their_seq_private(player):
    game = services.game_open(player=player, code=CODE)
    snapshot = spectator_snapshot(game_id=game.pk)
    assert snapshot["player"] == "Ann" and snapshot["game"]["id"] == game.pk
    assert "last_seq" not in snapshot["game"] and "placement_help" not in snapshot["game"]


def test_a_spectator_sees_a_result_without_its_deals_par():
    game = {"id": 1, "last_seq": 9, "result": {"won": True, "par": 80}}
    assert spectator_game(game) == {"id": 1, "result": {"won": True}}


def test_a_past_daily_deal_may_be_watched(player):
    deal = DailyDeal.objects.create(
        date=daily.daily_today() - datetime.timedelta(days=1), code=CODE
    )
    game = Game.objects.create(player=player, code=CODE, daily=deal, started_at=timezone.now())
    assert watch_refusal(viewer=AnonymousUser(), game=game) is None


def test_todays_deal_is_locked_until_the_viewers_own_ranked_game_of_it_has_ended(player, rival):
    game = todays_game(player)
    assert watch_refusal(viewer=AnonymousUser(), game=game) == "daily_locked"
    assert watch_refusal(viewer=rival, game=game) == "daily_locked"
    assert watch_refusal(viewer=player, game=game) is None  # one's own game
    finish(rival, game.daily)  # the rival's ranked game of the day, ended
    assert watch_refusal(viewer=rival, game=game) is None


def test_nobody_watches_a_deal_they_are_playing(player, rival):
    game = services.game_open(player=player, code=CODE)
    assert watch_refusal(viewer=rival, game=game) is None
    services.game_open(player=rival, code=CODE)
    assert watch_refusal(viewer=rival, game=game) == "playing_this_deal"


def test_the_game_to_watch_is_refused_with_the_reason(player, rival):
    game = todays_game(player)
    assert game_to_watch(viewer=player, game_id=game.pk) == game
    for game_id, reason in ((game.pk, "daily_locked"), (game.pk + 1, "no_such_game")):
        with pytest.raises(WatchError) as refused:
            game_to_watch(viewer=rival, game_id=game_id)
        assert refused.value.code == reason


def test_a_players_name_is_their_display_name_if_they_have_one(player):
    assert player_name(player.pk) == "Ann"
    assert player_name(player.pk + 1000) is None
