"""The end of a ranked daily: the percentile, the day's distribution, streaks, the next deal."""

import datetime

import pytest
import time_machine

from game.models import DailyDeal, Game
from game.selectors.finish import (
    daily_distribution,
    daily_finish,
    daily_percentile,
    daily_ranked_ended,
)
from tests.selectors.history import finish as a_result

pytestmark = pytest.mark.django_db

DAY = datetime.date(2026, 3, 14)
MINUTE = 60_000


@pytest.fixture
def today():
    """The clock at noon UTC on DAY."""
    with time_machine.travel(datetime.datetime(2026, 3, 14, 12, tzinfo=datetime.UTC), tick=False):
        yield DAY


@pytest.fixture
def deal():
    return DailyDeal.objects.create(date=DAY, code="HH1-D-AAAAAAB")


@pytest.fixture
def finish(make_player, deal):
    """finish(name, ms, cleared=25, ranked=True, on=deal): a finished game and its result."""
    made = iter(range(1000))

    def finish(name, ms, *, cleared=25, ranked=True, on=None):
        player = make_player(f"{name}{next(made)}") if isinstance(name, str) else name
        won = cleared == 25
        return a_result(
            player, on or deal, ranked=ranked, won=won, seconds=ms / 1000, score=10 * cleared
        )

    return finish


def test_a_winner_is_faster_than_the_share_of_the_other_winners_behind_them(finish):
    mine = finish("me", 3 * MINUTE)
    for ms in (2 * MINUTE, 4 * MINUTE, 5 * MINUTE, 6 * MINUTE):
        finish("winner", ms)
    finish("loser", MINUTE, cleared=20)  # losers are no winner's peers
    assert daily_percentile(result=mine) == {"percentile": 75, "compared": 4}


def test_a_loss_is_better_than_the_share_of_all_other_players_behind_it(finish):
    mine = finish("me", 5 * MINUTE, cleared=18)
    finish("winner", 9 * MINUTE)
    finish("fewer", MINUTE, cleared=10)
    finish("same-but-slower", 6 * MINUTE, cleared=18)
    finish("more", 2 * MINUTE, cleared=20)
    finish("even-fewer", MINUTE, cleared=0)
    # Behind it: fewer cleared (two), and as many cleared in more time (one); of five.
    assert daily_percentile(result=mine) == {"percentile": 60, "compared": 5}


def test_the_percentile_rounds_down_so_a_hundred_means_ahead_of_everyone(finish):
    mine = finish("me", MINUTE)
    for _ in range(2):
        finish("slower", 2 * MINUTE)
    finish("faster", MINUTE // 2)
    assert daily_percentile(result=mine)["percentile"] == 66
    best = finish("best", MINUTE // 4)
    assert daily_percentile(result=best)["percentile"] == 100


def test_the_first_result_of_the_day_has_nobody_to_compare_with(finish):
    assert daily_percentile(result=finish("first", MINUTE)) == {"percentile": None, "compared": 0}


def test_practice_games_and_other_days_are_not_compared(finish, deal):
    mine = finish("me", 3 * MINUTE)
    finish("practice", 5 * MINUTE, ranked=False)
    other_day = DailyDeal.objects.create(
        date=DAY - datetime.timedelta(days=1), code="HH1-D-AAAAAAC"
    )
    finish("yesterday", 5 * MINUTE, on=other_day)
    assert daily_percentile(result=mine)["compared"] == 0
    assert sum(bar["count"] for bar in daily_distribution(result=mine)["bars"]) == 1


def test_the_distribution_buckets_the_winners_by_time_and_counts_the_rest_in_one_bar(finish):
    mine = finish("me", 3 * MINUTE + 500)
    for ms in (0, 2 * MINUTE - 1, 2 * MINUTE, 16 * MINUTE, 90 * MINUTE):
        finish("winner", ms)
    for cleared in (0, 24):
        finish("loser", MINUTE, cleared=cleared)
    bars = daily_distribution(result=mine)["bars"]
    assert [(bar["from_ms"], bar["to_ms"], bar["count"]) for bar in bars] == [
        (0, 2 * MINUTE, 2),
        (2 * MINUTE, 3 * MINUTE, 1),
        (3 * MINUTE, 4 * MINUTE, 1),
        (4 * MINUTE, 5 * MINUTE, 0),
        (5 * MINUTE, 7 * MINUTE, 0),
        (7 * MINUTE, 10 * MINUTE, 0),
        (10 * MINUTE, 15 * MINUTE, 0),
        (15 * MINUTE, None, 2),
        (None, None, 2),
    ]
    assert [bar["won"] for bar in bars] == [True] * 8 + [False]
    assert daily_distribution(result=mine)["you"] == 2


def test_a_loss_is_in_the_not_cleared_bar_and_a_slow_win_in_the_last_time_bar(finish):
    assert daily_distribution(result=finish("lost", MINUTE, cleared=3))["you"] == 8
    assert daily_distribution(result=finish("slow", 60 * MINUTE))["you"] == 7


def test_the_window_has_the_cards_cleared_the_streak_and_the_next_deal(today, finish, make_player):
    player = make_player("streaker")
    yesterday = DailyDeal.objects.create(
        date=DAY - datetime.timedelta(days=1), code="HH1-D-AAAAAAD"
    )
    finish(player, MINUTE, on=yesterday)
    mine = finish(player, 2 * MINUTE)
    data = daily_finish(result=mine)
    assert data["cleared"] == 25
    assert data["streak"] == {"current": 2, "best": 2}
    assert data["next_deal_at"] == "2026-03-15T00:00:00+00:00"
    assert daily_finish(result=finish("loser", MINUTE, cleared=18))["cleared"] == 18


def test_the_next_deal_is_the_next_midnight_of_the_daily_calendar(today, finish, settings):
    settings.DAILY_TZ = "Asia/Kuala_Lumpur"  # 20:00 there: the next deal comes in four hours
    data = daily_finish(result=finish("me", MINUTE))
    assert data["next_deal_at"] == "2026-03-15T00:00:00+08:00"


def test_the_daily_page_finds_todays_ranked_game_once_it_has_ended_and_no_other(
    today, finish, deal, make_player
):
    player = make_player("returning")
    ranked = Game.objects.create(player=player, code=deal.code, daily=deal, ranked=True)
    assert daily_ranked_ended(player=player) is None  # awaiting its Start: /daily/ is that game
    Game.objects.filter(pk=ranked.pk).update(status=Game.Status.WON)
    finish(player, MINUTE, ranked=False)  # a practice game after it changes nothing
    assert daily_ranked_ended(player=player) == ranked
    with time_machine.travel(datetime.datetime(2026, 3, 15, 0, 1, tzinfo=datetime.UTC)):
        assert daily_ranked_ended(player=player) is None  # a new day: a new deal to play
