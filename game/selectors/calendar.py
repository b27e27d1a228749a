"""The daily calendar: each day's mark of one player's ranked daily result, a month at a time."""

import calendar
import datetime
from dataclasses import dataclass
from enum import StrEnum

from game.models import DailyDeal, Result


class Mark(StrEnum):
    """A day's outcome for one player; only the ranked daily game counts, never practice."""

    WON_CLEAN = "won-clean"  # won with no undo and placement help off
    WON = "won"
    PLAYED = "played"  # finished, not won
    NOT_PLAYED = "not-played"


@dataclass(frozen=True)
class Month:
    year: int
    month: int

    @property
    def first(self) -> datetime.date:
        return datetime.date(self.year, self.month, 1)

    @property
    def last(self) -> datetime.date:
        return self.first.replace(day=calendar.monthrange(self.year, self.month)[1])

    def shifted(self, months: int) -> "Month":
        index = self.year * 12 + self.month - 1 + months
        return Month(index // 12, index % 12 + 1)

    @classmethod
    def of(cls, day: datetime.date) -> "Month":
        return cls(day.year, day.month)


def mark_of(result: Result | None) -> Mark:
    if result is None:
        return Mark.NOT_PLAYED
    if not result.won:
        return Mark.PLAYED
    return Mark.WON_CLEAN if result.clean else Mark.WON


def month_marks(user, month: Month, today: datetime.date) -> dict[datetime.date, Mark]:
    """The player's mark of every day of `month` up to `today`; later days have none."""
    results = Result.objects.filter(
        player=user, ranked=True, daily__date__range=(month.first, month.last)
    ).select_related("daily")
    by_day = {result.daily.date: result for result in results}
    days = (month.first + datetime.timedelta(days=n) for n in range(month.last.day))
    return {day: mark_of(by_day.get(day)) for day in days if day <= today}


def month_deals(month: Month) -> dict[datetime.date, DailyDeal]:
    """The stored daily deals of `month`: a day nobody opened has none, so no board."""
    deals = DailyDeal.objects.filter(date__range=(month.first, month.last))
    return {deal.date: deal for deal in deals}


def first_month(today: datetime.date) -> Month:
    """The calendar's first month: that of the earliest daily deal (or today's, before any)."""
    earliest = DailyDeal.objects.order_by("date").values_list("date", flat=True).first()
    return Month.of(min(earliest or today, today))
