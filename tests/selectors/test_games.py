"""A game as its player's board shows it, and the day a ranked game is ranked on."""

import datetime

import pytest
from django.conf import settings
from django.utils import timezone

from game import engine
from game.models import Game
from game.selectors.games import game_awaiting_start, game_day, game_day_over, game_snapshot
from tests.selectors.history import TODAY, deal_on, december_the_tenth, finish  # noqa: F401

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("december_the_tenth")]

CODE = "HH1-N-AAAAAAC"
YESTERDAY = TODAY - datetime.timedelta(days=1)


def ranked_game(player, day: datetime.date) -> Game:
    deal = deal_on(day)
    return Game.objects.create(player=player, code=deal.code, daily=deal, ranked=True)


def test_an_open_games_snapshot_is_its_public_view_and_no_result(player):
    game = Game.objects.create(player=player, code=CODE, started_at=timezone.now())
    snapshot = game_snapshot(game=game)
    assert snapshot["view"] == engine.public_view(engine.new_game(CODE, key=settings.DEAL_KEY))
    info = snapshot["game"]
    assert info | {"id": game.pk, "status": "open", "result": None} == info
    assert not info["ranked"] and not info["practice"]


def test_the_snapshot_describes_the_game_without_the_stock(player):
    game = Game.objects.create(player=player, code=CODE, started_at=timezone.now())
    snapshot = game_snapshot(game=game)
    assert set(snapshot["game"]) == {
        "id", "code", "kind", "ranked", "practice", "status", "started_at", "awaiting_start",
        "server_now", "paused_ms", "last_seq", "daily_date", "placement_help", "result",
    }  # fmt: skip
    assert snapshot["game"]["awaiting_start"] is False
    assert snapshot["game"]["kind"] == "N" and snapshot["game"]["daily_date"] is None
    assert snapshot["view"]["stock"] == 26 and snapshot["view"]["code"] == CODE


def test_a_ranked_game_not_started_shows_the_piles_sizes_but_no_card(player):
    game = ranked_game(player, TODAY)
    assert game_awaiting_start(game=game)
    snapshot = game_snapshot(game=game)
    view = snapshot["view"]
    assert view["heart"] is None and view["waste"]["top"] is None and view["hints"] == []
    assert view["stock"] == 26 and snapshot["game"]["awaiting_start"]
    assert snapshot["game"]["daily_date"] == TODAY.isoformat()


def test_a_finished_games_snapshot_carries_its_result(player):
    result = finish(player)
    snapshot = game_snapshot(game=result.game)
    assert snapshot["game"]["status"] == "won" and snapshot["game"]["result"]["score"] == 250


def test_only_a_ranked_game_has_a_day(player, rival):
    ranked = ranked_game(player, TODAY)
    practice = Game.objects.create(player=rival, code=ranked.code, daily=ranked.daily)
    assert game_day(game=ranked) == TODAY
    assert game_day(game=practice) is None
    assert game_day(game=Game.objects.create(player=player, code=CODE)) is None


def test_a_ranked_game_of_a_past_day_left_unfinished_or_finished_late_is_over(player, rival):
    end_of_yesterday = datetime.datetime.combine(TODAY, datetime.time(), tzinfo=datetime.UTC)
    unfinished = ranked_game(player, YESTERDAY)
    assert game_day_over(game=unfinished)
    unfinished.finished_at = end_of_yesterday
    assert game_day_over(game=unfinished)
    unfinished.finished_at = end_of_yesterday - datetime.timedelta(seconds=1)
    assert not game_day_over(game=unfinished)
    assert not game_day_over(game=ranked_game(rival, TODAY))
    assert not game_day_over(game=Game.objects.create(player=player, code=CODE))
