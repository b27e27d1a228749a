"""Which results stand: those that no review voided, of days that no review voided
(docs/protocol.md, "Review: voiding results"). Every board, rank, comparison and streak reads
these; the player's own history (their recent games, their calendar) keeps every result."""

import datetime

from django.db.models import QuerySet

from game.models import DailyDeal, Result


def standing_results() -> QuerySet[Result]:
    """The results that count: neither voided themselves nor of a voided day. The voided days
    are a subquery rather than a join, so a board's aggregate keeps its plan."""
    voided = DailyDeal.objects.filter(voided_at__isnull=False)
    return Result.objects.filter(voided_at__isnull=True).exclude(daily__in=voided)


def day_standing(*, daily_id: int) -> QuerySet[Result]:
    """A day's board: its ranked results that stand (practice games are not on it)."""
    return standing_results().filter(daily_id=daily_id, ranked=True)


def voided_days(*, until: datetime.date) -> list[datetime.date]:
    """The voided days up to `until`, oldest first: streaks pass over them."""
    days = DailyDeal.objects.filter(voided_at__isnull=False, date__lte=until)
    return list(days.order_by("date").values_list("date", flat=True))


def voided_count(*, user) -> int:
    """How many of the player's own results a review voided (a voided day's are not theirs)."""
    return Result.objects.filter(player=user, voided_at__isnull=False).count()
