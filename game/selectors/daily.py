"""The daily deal's calendar and its stored deals: today's date on it, the instant a day ends,
whether a code is today's deal, and the days around one. The deal of a day is derived and
stored by game.services.daily."""

import datetime
from zoneinfo import ZoneInfo

from django.conf import settings

from game.models import DailyDeal


def daily_today() -> datetime.date:
    """Today's date on the daily deal's calendar (settings.DAILY_TZ)."""
    return datetime.datetime.now(ZoneInfo(settings.DAILY_TZ)).date()


def daily_day_end(day: datetime.date) -> datetime.datetime:
    """The instant `day` ends on the daily calendar: the next midnight in settings.DAILY_TZ.

    >>> from django.test import override_settings
    >>> with override_settings(DAILY_TZ="Asia/Kuala_Lumpur"):
    ...     daily_day_end(datetime.date(2026, 3, 14)).isoformat()
    '2026-03-15T00:00:00+08:00'
    """
    midnight = datetime.datetime.combine(day + datetime.timedelta(days=1), datetime.time())
    return midnight.replace(tzinfo=ZoneInfo(settings.DAILY_TZ))


def daily_is_today(code: str) -> bool:
    """Whether the canonical `code` is today's daily deal (only an "HH1-D-" code can be)."""
    if code.split("-")[1] != "D":
        return False
    return DailyDeal.objects.filter(code=code, date=daily_today()).exists()


def daily_deal_on(day: datetime.date) -> DailyDeal | None:
    """The daily deal of `day`, if anyone has opened it."""
    return DailyDeal.objects.filter(date=day).first()


def neighbouring_days(deal: DailyDeal) -> tuple[datetime.date | None, datetime.date | None]:
    """The dates of the daily deals just before and just after `deal`."""
    deals = DailyDeal.objects.values_list("date", flat=True)
    before = deals.filter(date__lt=deal.date).order_by("-date").first()
    after = deals.filter(date__gt=deal.date).order_by("date").first()
    return before, after
