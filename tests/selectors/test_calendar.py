"""The daily calendar's marks: one player's ranked daily result on each day of a month."""

import datetime

import pytest

from game.selectors.calendar import Mark, Month, first_month, month_marks
from tests.selectors.history import deal_on, finish

pytestmark = pytest.mark.django_db

TODAY = datetime.date(2026, 12, 10)
DECEMBER = Month(2026, 12)


def day(n: int) -> datetime.date:
    return datetime.date(2026, 12, n)


def test_each_day_up_to_today_has_a_mark_and_later_days_none(player):
    marks = month_marks(player, DECEMBER, TODAY)
    assert list(marks) == [day(n) for n in range(1, 11)]
    assert set(marks.values()) == {Mark.NOT_PLAYED}


def test_a_won_ranked_daily_is_won_clean_only_without_undo_or_placement_help(player):
    finish(player, deal_on(day(1)))
    finish(player, deal_on(day(2)), undos=1)
    finish(player, deal_on(day(3)), placement_help=True)
    marks = month_marks(player, DECEMBER, TODAY)
    assert [marks[day(n)] for n in (1, 2, 3)] == [Mark.WON_CLEAN, Mark.WON, Mark.WON]


def test_a_finished_ranked_daily_not_won_is_played(player):
    finish(player, deal_on(day(4)), won=False)
    assert month_marks(player, DECEMBER, TODAY)[day(4)] == Mark.PLAYED


def test_practice_games_and_other_players_results_mark_nothing(player, rival):
    deal = deal_on(day(5))
    finish(player, deal, ranked=False)
    finish(rival, deal)
    assert month_marks(player, DECEMBER, TODAY)[day(5)] == Mark.NOT_PLAYED


def test_results_of_other_months_stay_out(player):
    finish(player, deal_on(datetime.date(2026, 11, 30)))
    finish(player, deal_on(day(1)))
    november = month_marks(player, Month(2026, 11), TODAY)
    assert len(november) == 30 and november[datetime.date(2026, 11, 30)] == Mark.WON_CLEAN
    assert month_marks(player, DECEMBER, TODAY)[day(1)] == Mark.WON_CLEAN


def test_months_shift_across_years():
    assert DECEMBER.shifted(1) == Month(2027, 1)
    assert Month(2027, 1).shifted(-1) == DECEMBER
    assert Month(2024, 2).last == datetime.date(2024, 2, 29)


def test_the_calendar_starts_with_the_month_of_the_first_daily_deal():
    assert first_month(TODAY) == DECEMBER
    deal_on(datetime.date(2026, 9, 30))
    assert first_month(TODAY) == Month(2026, 9)
