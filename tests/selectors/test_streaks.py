"""Streaks: consecutive days of the daily calendar with a won ranked daily deal."""

import datetime

import pytest
import time_machine

from game.selectors.daily import daily_day_end, daily_today
from game.selectors.streaks import Streak, streak_of
from tests.selectors.history import deal_on, finish

pytestmark = pytest.mark.django_db

TODAY = datetime.date(2026, 3, 14)


def days_ago(n: int) -> datetime.date:
    return TODAY - datetime.timedelta(days=n)


@pytest.fixture
def deals():
    """The daily deals of the last six days, today's last: deals[n] is n days ago."""
    return {n: deal_on(days_ago(n)) for n in range(6)}


def test_a_player_with_no_result_has_no_streak(player, deals):
    assert streak_of(player, TODAY) == Streak(current=0, best=0)


def test_wins_on_consecutive_days_ending_today_are_the_current_streak(player, deals):
    for n in (2, 1, 0):
        finish(player, deals[n])
    assert streak_of(player, TODAY) == Streak(current=3, best=3)


def test_today_not_yet_won_leaves_the_streak_ending_yesterday_standing(player, deals):
    for n in (2, 1):
        finish(player, deals[n])
    assert streak_of(player, TODAY) == Streak(current=2, best=2)


def test_a_missed_day_breaks_the_streak(player, deals):
    for n in (5, 4, 3, 1):
        finish(player, deals[n])
    assert streak_of(player, TODAY) == Streak(current=1, best=3)


def test_a_missed_yesterday_ends_the_current_streak(player, deals):
    for n in (3, 2):
        finish(player, deals[n])
    assert streak_of(player, TODAY) == Streak(current=0, best=2)


def test_a_lost_day_breaks_the_streak(player, deals):
    finish(player, deals[3])
    finish(player, deals[2], won=False)
    finish(player, deals[1])
    assert streak_of(player, TODAY) == Streak(current=1, best=1)


def test_losing_today_ends_the_current_streak_at_once(player, deals):
    finish(player, deals[1])
    finish(player, deals[0], won=False)
    assert streak_of(player, TODAY) == Streak(current=0, best=1)


def test_practice_games_count_for_nothing(player, deals):
    finish(player, deals[2])
    finish(player, deals[1], ranked=False)
    finish(player, code="HH1-N-AAAAAAM")
    assert streak_of(player, TODAY) == Streak(current=0, best=1)


def test_a_missed_day_breaks_the_streak_even_when_nobody_opened_its_deal(player):
    for n in (3, 1):
        finish(player, deal_on(days_ago(n)))
    assert streak_of(player, TODAY) == Streak(current=1, best=1)


def test_another_players_results_do_not_count(player, rival, deals):
    finish(rival, deals[1])
    finish(player, deals[1], won=False)
    assert streak_of(player, TODAY) == Streak(current=0, best=0)
    assert streak_of(rival, TODAY) == Streak(current=1, best=1)


def test_the_streak_is_as_of_the_given_day(player, deals):
    for n in (3, 2):
        finish(player, deals[n])
    assert streak_of(player, days_ago(2)) == Streak(current=2, best=2)
    assert streak_of(player, days_ago(1)) == Streak(current=2, best=2)
    assert streak_of(player, TODAY) == Streak(current=0, best=2)


@pytest.fixture
def kuala_lumpur_midnight(settings):
    """The end of TODAY on a daily calendar in Kuala Lumpur: 16:00 UTC, not midnight UTC."""
    settings.DAILY_TZ = "Asia/Kuala_Lumpur"
    return daily_day_end(TODAY)


def test_an_unplayed_day_breaks_the_streak_only_when_the_daily_calendar_day_ends(
    player, deals, kuala_lumpur_midnight
):
    finish(player, deals[1])
    with time_machine.travel(kuala_lumpur_midnight - datetime.timedelta(minutes=1)):
        assert daily_today() == TODAY
        assert streak_of(player, daily_today()) == Streak(current=1, best=1)
    with time_machine.travel(kuala_lumpur_midnight + datetime.timedelta(minutes=1)):
        deal_on(daily_today())
        assert streak_of(player, daily_today()) == Streak(current=0, best=1)


def test_a_win_just_before_the_daily_calendar_midnight_carries_into_the_next_day(
    player, deals, kuala_lumpur_midnight
):
    finish(player, deals[1])
    with time_machine.travel(kuala_lumpur_midnight - datetime.timedelta(minutes=1)):
        finish(player, deals[0])
    with time_machine.travel(kuala_lumpur_midnight + datetime.timedelta(minutes=1)):
        # Still TODAY in UTC, already the next day on the daily calendar.
        assert datetime.datetime.now(datetime.UTC).date() == TODAY
        deal_on(daily_today())
        assert streak_of(player, daily_today()) == Streak(current=2, best=2)
