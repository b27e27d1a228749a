"""Streaks: consecutive days of the daily calendar with a won ranked daily deal.

The calendar is the daily deals' own: a day with no deal (nobody could open one, say the site
was down) breaks no streak. Today's deal breaks the current streak only once it is lost; until
the player finishes it, the streak ending yesterday stands, since the day has not ended.
"""

import datetime
from collections import defaultdict
from dataclasses import dataclass

from django.db.models import Q

from game.models import DailyDeal, Result


@dataclass(frozen=True)
class Streak:
    current: int
    best: int


def streak_of(user, today: datetime.date) -> Streak:
    """The player's current and best streak as of `today` on the daily calendar."""
    return streaks_of([user.pk], today)[user.pk]


def streaks_of(player_ids: list[int], today: datetime.date) -> dict[int, Streak]:
    """Each player's streak as of `today`, from one read of the deals and one of the results."""
    deals = list(
        DailyDeal.objects.filter(date__lte=today).order_by("date").values_list("pk", "date")
    )
    outcomes: dict[int, dict[int, bool]] = defaultdict(dict)
    finished = Result.objects.filter(ranked=True, player_id__in=player_ids).filter(
        Q(won=True) | Q(daily__date=today)
    )
    for player_id, deal_id, won in finished.values_list("player_id", "daily_id", "won"):
        outcomes[player_id][deal_id] = won
    return {pid: _streak(outcomes[pid], deals, today) for pid in player_ids}


def _streak(
    outcomes: dict[int, bool], deals: list[tuple[int, datetime.date]], today: datetime.date
) -> Streak:
    run = best = 0
    for deal_id, date in deals:
        won = outcomes.get(deal_id)
        if won:
            run += 1
            best = max(best, run)
        elif not (won is None and date == today):
            run = 0
    return Streak(current=run, best=best)
