"""A player's daily figures for their page: the last 30 days, their winning times, par."""

import datetime
from dataclasses import dataclass

from game.models import Result
from game.selectors.calendar import Mark, daily_results, mark_of
from game.selectors.par import pars_of

RECENT_DAYS = 30
# The histogram's buckets in seconds: each runs from its bound up to the next; the last is open.
TIME_BOUNDS = (0, 60, 120, 180, 240, 300, 420, 600, 900)


@dataclass(frozen=True)
class DayTime:
    date: datetime.date
    mark: Mark
    duration_ms: int | None  # None on a day not played


@dataclass(frozen=True)
class TimeBucket:
    low_s: int
    high_s: int | None  # None: no upper bound
    count: int


def recent_days(user, today: datetime.date, days: int = RECENT_DAYS) -> list[DayTime]:
    """The player's ranked daily game of each of the last `days` days, oldest first."""
    first = today - datetime.timedelta(days=days - 1)
    results = daily_results(user, first, today)
    dates = (first + datetime.timedelta(days=n) for n in range(days))
    return [_day_time(date, results.get(date)) for date in dates]


def _day_time(date: datetime.date, result: Result | None) -> DayTime:
    return DayTime(date, mark_of(result), result and result.duration_ms)


def _won_dailies(user):
    return Result.objects.filter(player=user, ranked=True, daily__isnull=False, won=True)


def time_histogram(user) -> list[TimeBucket]:
    """How many of the player's ranked daily wins took each span of time."""
    seconds = [ms // 1000 for ms in _won_dailies(user).values_list("duration_ms", flat=True)]
    highs = (*TIME_BOUNDS[1:], None)
    return [
        TimeBucket(low, high, sum(low <= s and (high is None or s < high) for s in seconds))
        for low, high in zip(TIME_BOUNDS, highs, strict=True)
    ]


def moves_over_par(user, today: datetime.date) -> float | None:
    """The player's average moves above par over their ranked daily wins whose par is known;
    a win of a deal whose par is not computed yet is left out, and so is today's: until the
    day ends, a newcomer's only win would give today's par away (moves minus the average)."""
    ended_days = _won_dailies(user).filter(daily__date__lt=today)
    wins = list(ended_days.values_list("code", "moves"))
    pars = pars_of({code for code, _ in wins})
    excess = [moves - pars[code] for code, moves in wins if code in pars]
    return sum(excess) / len(excess) if excess else None
