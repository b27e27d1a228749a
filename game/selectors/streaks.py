"""Streaks: consecutive calendar days (in H2H_DAILY_TZ) with a won ranked daily deal.

Any day without a win breaks the streak, a missed day included. Today breaks the current
streak only once today's deal is lost; until the player finishes it, the streak ending
yesterday stands, since the day has not ended.
"""

import datetime
from collections import defaultdict
from dataclasses import dataclass

from django.db.models import Q

from game.models import Result

ONE_DAY = datetime.timedelta(days=1)


@dataclass(frozen=True)
class Streak:
    current: int
    best: int


def streak_of(user, today: datetime.date) -> Streak:
    """The player's current and best streak as of `today`."""
    return streaks_of([user.pk], today)[user.pk]


def streaks_of(player_ids: list[int], today: datetime.date) -> dict[int, Streak]:
    """Each player's streak as of `today`, from one read of their ranked daily results."""
    won_days: dict[int, set[datetime.date]] = defaultdict(set)
    lost_today: set[int] = set()
    finished = Result.objects.filter(
        ranked=True, player_id__in=player_ids, daily__date__lte=today
    ).filter(Q(won=True) | Q(daily__date=today))
    for player_id, day, won in finished.values_list("player_id", "daily__date", "won"):
        if won:
            won_days[player_id].add(day)
        else:
            lost_today.add(player_id)
    return {pid: _streak(won_days[pid], pid in lost_today, today) for pid in player_ids}


def _streak(won_days: set[datetime.date], lost_today: bool, today: datetime.date) -> Streak:
    run = best = 0
    last = None
    for day in sorted(won_days):
        run = run + 1 if last == day - ONE_DAY else 1
        best, last = max(best, run), day
    still_running = last == today or (last == today - ONE_DAY and not lost_today)
    return Streak(current=run if still_running else 0, best=best)
