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


@dataclass(frozen=True, order=True)
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

    @property
    def first_week(self) -> list[datetime.date]:
        """The seven dates of the month's first week, Monday first, for the weekdays' names."""
        return calendar.Calendar().monthdatescalendar(self.year, self.month)[0]

    @property
    def iso(self) -> str:
        return f"{self.year:04d}-{self.month:02d}"

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
    by_day = daily_results(user, month.first, month.last)
    days = (month.first + datetime.timedelta(days=n) for n in range(month.last.day))
    return {day: mark_of(by_day.get(day)) for day in days if day <= today}


def daily_results(user, first: datetime.date, last: datetime.date) -> dict[datetime.date, Result]:
    """The player's ranked daily results of the days from `first` to `last`, by day."""
    results = Result.objects.filter(player=user, ranked=True, daily__date__range=(first, last))
    return {result.daily.date: result for result in results.select_related("daily")}


def month_deals(month: Month) -> dict[datetime.date, DailyDeal]:
    """The stored daily deals of `month`: a day nobody opened has none, so no board."""
    deals = DailyDeal.objects.filter(date__range=(month.first, month.last))
    return {deal.date: deal for deal in deals}


def first_month(today: datetime.date) -> Month:
    """The calendar's first month: that of the earliest daily deal (or today's, before any)."""
    earliest = DailyDeal.objects.order_by("date").values_list("date", flat=True).first()
    return Month.of(min(earliest or today, today))


@dataclass(frozen=True)
class CalendarDay:
    date: datetime.date
    when: str  # "past", "today" or "future"
    mark: Mark | None  # None on a later day, and on an anonymous visitor's calendar
    deal: DailyDeal | None  # None on a day nobody opened: it has no board
    difficulty: int | None = None  # the deal's rating, once the viewer may see it


def month_weeks(
    user, month: Month, today: datetime.date, difficulties: dict | None = None
) -> list[list[CalendarDay | None]]:
    """The month's weeks, Monday first; None fills the days of the months around it.
    `difficulties` are the deals' ratings the viewer may see, by date
    (game.selectors.ratings.month_difficulties)."""
    marks = month_marks(user, month, today) if user is not None else {}
    deals = month_deals(month)
    weeks = calendar.Calendar().monthdatescalendar(month.year, month.month)
    known = {"marks": marks, "deals": deals, "difficulties": difficulties or {}}
    return [
        [_day(day, today, **known) if day.month == month.month else None for day in week]
        for week in weeks
    ]


def _day(
    day: datetime.date, today: datetime.date, *, marks: dict, deals: dict, difficulties: dict
) -> CalendarDay:
    when = "past" if day < today else "today" if day == today else "future"
    return CalendarDay(day, when, marks.get(day), deals.get(day), difficulties.get(day))
