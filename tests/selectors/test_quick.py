"""The quick race's reads: a player's Race rating and the ghost offered after a long wait."""

import pytest
from django.utils import timezone

from game.models import DailyDeal, Game, RaceEntry, RaceRoom, Rating, RatingKind, Result
from game.selectors.daily import daily_today
from game.selectors.quick import START_RATING, ghost_offer_url, race_rating

pytestmark = pytest.mark.django_db


def finished(player, code: str, *, score: int = 250, seconds: int = 90, daily=None) -> Game:
    now = timezone.now()
    game = Game.objects.create(player=player, code=code, daily=daily, started_at=now)
    Result.objects.create(
        game=game,
        player=player,
        code=code,
        daily=daily,
        won=score == 250,
        score=score,
        moves=40,
        undos=0,
        placement_help=False,
        duration_ms=seconds * 1000,
        finished_at=now,
    )
    return game


def test_a_player_never_rated_races_as_a_newcomer(player, rival):
    Rating.objects.create(
        player=rival,
        kind=RatingKind.RACE,
        rating=1720,
        deviation=70,
        volatility=0.06,
        rated_at=timezone.now(),
    )
    Rating.objects.create(
        player=player,
        kind=RatingKind.DAILY,
        rating=1900,
        deviation=70,
        volatility=0.06,
        rated_at=timezone.now(),
    )
    assert (race_rating(player=player), race_rating(player=rival)) == (START_RATING, 1720)


def test_the_ghost_offered_is_the_best_result_of_a_deal_won(player, rival):
    finished(player, "HH1-N-AAAAAAC", seconds=120)
    best = finished(rival, "HH1-N-AAAAAAC", seconds=80)
    assert ghost_offer_url() == f"/play/HH1-N-AAAAAAC/?ghost={best.pk}"


def test_no_ghost_of_today_s_daily_deal_nor_of_a_race_being_run(player, rival):
    today = DailyDeal.objects.create(date=daily_today(), code="HH1-D-AAAAAAB")
    finished(player, today.code, daily=today)
    raced = finished(rival, "HH1-N-AAAAAAC")
    room = RaceRoom.objects.create(
        room="K7P2QX",
        code=raced.code,
        status=RaceRoom.Status.RUNNING,
        created_at=timezone.now(),
        touched_at=timezone.now(),
    )
    RaceEntry.objects.create(room=room, player=rival, joined_at=timezone.now(), game=raced)
    assert ghost_offer_url() is None
