"""Streaks: consecutive calendar days (in H2H_DAILY_TZ) with a won ranked daily deal.

Any day without a win breaks the streak, a missed day included. Today breaks the current
streak only once today's deal is lost; until the player finishes it, the streak ending
yesterday stands, since the day has not ended. Only standing results count (a voided win is
no win), and a voided day is passed over: it neither extends nor breaks a streak.
"""

import datetime
from bisect import bisect_left
from collections import defaultdict
from dataclasses import dataclass

from django.db.models import Q

from game.selectors.standing import standing_results, voided_days


@dataclass(frozen=True)
class Streak:
    current: int
    best: int


def streak_of(user, today: datetime.date) -> Streak:
    """The player's current and best streak as of `today`."""
    return streaks_of([user.pk], today)[user.pk]


def streaks_of(player_ids: list[int], today: datetime.date) -> dict[int, Streak]:
    """Each player's streak as of `today`, from one read of their ranked daily results and
    one of the voided days."""
    won_days: dict[int, set[datetime.date]] = defaultdict(set)
    lost_today: set[int] = set()
    finished = (
        standing_results()
        .filter(ranked=True, player_id__in=player_ids, daily__date__lte=today)
        .filter(Q(won=True) | Q(daily__date=today))
    )
    for player_id, day, won in finished.values_list("player_id", "daily__date", "won"):
        if won:
            won_days[player_id].add(day)
        else:
            lost_today.add(player_id)
    skipped = voided_days(until=today)
    counted = {pid: {_counting(day, skipped) for day in won_days[pid]} for pid in player_ids}
    now = _counting(today, skipped)
    return {pid: _streak(counted[pid], pid in lost_today, now) for pid in player_ids}


def _counting(day: datetime.date, skipped: list[datetime.date]) -> int:
    """The day's number on a calendar without the voided days, so that the days on either
    side of a voided one follow each other."""
    return day.toordinal() - bisect_left(skipped, day)


def _streak(won_days: set[int], lost_today: bool, today: int) -> Streak:
    """The streaks of the days won, each day counted by `_counting`, as is `today`."""
    run = best = 0
    last = None
    for day in sorted(won_days):
        run = run + 1 if last == day - 1 else 1
        best, last = max(best, run), day
    still_running = last == today or (last == today - 1 and not lost_today)
    return Streak(current=run if still_running else 0, best=best)
