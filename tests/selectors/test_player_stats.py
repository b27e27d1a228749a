"""A player's daily figures: the last 30 days, the histogram of winning times, moves over par."""

import datetime

import pytest

from game.models import DealPar
from game.selectors.calendar import Mark
from game.selectors.player_stats import moves_over_par, recent_days, time_histogram
from tests.selectors.history import deal_on, finish

pytestmark = pytest.mark.django_db

TODAY = datetime.date(2026, 12, 10)


def days_ago(n: int) -> datetime.date:
    return TODAY - datetime.timedelta(days=n)


def test_the_last_30_days_run_oldest_first_with_each_days_ranked_time(player):
    finish(player, deal_on(days_ago(29)), seconds=90)
    finish(player, deal_on(days_ago(3)), won=False, seconds=400)
    finish(player, deal_on(days_ago(30)), seconds=10)  # a day too early
    days = recent_days(player, TODAY)
    assert [day.date for day in days] == [days_ago(n) for n in range(29, -1, -1)]
    assert (days[0].mark, days[0].duration_ms) == (Mark.WON_CLEAN, 90_000)
    assert (days[26].mark, days[26].duration_ms) == (Mark.PLAYED, 400_000)
    assert [day.duration_ms for day in days].count(None) == 28


def test_practice_leaves_a_gap_in_the_last_30_days(player):
    finish(player, deal_on(days_ago(1)), ranked=False)
    assert recent_days(player, TODAY)[-2].duration_ms is None


def test_the_histogram_counts_ranked_daily_wins_by_span_of_minutes(player):
    for n, seconds in enumerate((30, 59, 60, 299, 300, 3_000)):
        finish(player, deal_on(days_ago(n)), seconds=seconds)
    finish(player, deal_on(days_ago(10)), won=False, seconds=30)
    finish(player, deal_on(days_ago(11)), ranked=False, seconds=30)
    finish(player, seconds=30)  # a normal deal
    buckets = time_histogram(player)
    assert [(b.low_s, b.high_s) for b in buckets][:2] == [(0, 60), (60, 120)]
    assert buckets[-1].high_s is None
    assert {b.low_s: b.count for b in buckets if b.count} == {0: 2, 60: 1, 240: 1, 300: 1, 900: 1}


def test_moves_over_par_averages_the_wins_whose_par_is_known(player):
    for n, (moves, par) in enumerate(((40, 36), (50, 48), (45, None), (70, "not computed"))):
        code = finish(player, deal_on(days_ago(n + 1)), moves=moves).code
        if par != "not computed":
            DealPar.objects.create(code=code, par=par)
    DealPar.objects.create(
        code=finish(player, deal_on(days_ago(6)), won=False, moves=90).code, par=30
    )
    assert moves_over_par(player, TODAY) == 3.0


def test_moves_over_par_is_unknown_without_a_win_of_known_par(player):
    finish(player, deal_on(days_ago(1)))
    assert moves_over_par(player, TODAY) is None


def test_todays_win_counts_over_par_only_once_the_day_has_ended(player):
    DealPar.objects.create(code=finish(player, deal_on(TODAY), moves=47).code, par=42)
    assert moves_over_par(player, TODAY) is None  # else par = 47 - the average
    assert moves_over_par(player, TODAY + datetime.timedelta(days=1)) == 5.0
