"""The daily deal's calendar and its stored deals: today, a day's end, today's deal, the days
around one."""

import datetime

import pytest
import time_machine

from game.models import DailyDeal
from game.selectors import daily
from tests.selectors.history import TODAY, deal_on, december_the_tenth  # noqa: F401

pytestmark = pytest.mark.django_db

YESTERDAY = TODAY - datetime.timedelta(days=1)


def test_today_is_read_in_the_configured_time_zone(settings):
    # 25 hours apart (UTC+14 and UTC-11): at noon UTC one zone is a day ahead of the other.
    with time_machine.travel(datetime.datetime(2026, 6, 1, 12, tzinfo=datetime.UTC), tick=False):
        settings.DAILY_TZ = "Pacific/Kiritimati"
        assert daily.daily_today() == datetime.date(2026, 6, 2)
        settings.DAILY_TZ = "Pacific/Pago_Pago"
        assert daily.daily_today() == datetime.date(2026, 6, 1)


def test_a_day_ends_at_the_next_midnight_of_the_calendars_zone(settings):
    settings.DAILY_TZ = "Pacific/Kiritimati"
    end = daily.daily_day_end(TODAY)
    assert end == datetime.datetime(2026, 12, 10, 10, tzinfo=datetime.UTC)


@pytest.mark.usefixtures("december_the_tenth")
def test_only_todays_stored_daily_code_is_today():
    today, yesterday = deal_on(TODAY), deal_on(YESTERDAY)
    assert daily.daily_is_today(today.code)
    assert not daily.daily_is_today(yesterday.code)
    assert not daily.daily_is_today("HH1-D-ZZZZZZZ")  # a daily code no day has
    assert not daily.daily_is_today("HH1-N-AAAAAAC")


def test_a_days_deal_is_the_one_stored_for_it_if_any():
    deal = deal_on(TODAY)
    assert daily.daily_deal_on(TODAY) == deal
    assert daily.daily_deal_on(YESTERDAY) is None


def test_the_neighbouring_days_are_the_nearest_stored_deals_either_side():
    first, middle, last = (deal_on(TODAY + datetime.timedelta(days=n)) for n in (-5, 0, 3))
    assert daily.neighbouring_days(middle) == (first.date, last.date)
    assert daily.neighbouring_days(first) == (None, middle.date)
    assert daily.neighbouring_days(last) == (middle.date, None)
    assert DailyDeal.objects.count() == 3
