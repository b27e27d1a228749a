"""Reviews: a person's decision on a flagged result, or on a whole day (docs/protocol.md,
"Review: voiding results"). A flag decides nothing; only these functions void, and a reviewer
calls them (the admin's actions). Each is one transaction: the row, the versions of the live
boards it changes, and a line in the admin's history naming who did it and why; the boards'
listeners hear after commit.

A voided result, or any result of a voided day, no longer stands (game/selectors/standing.py):
it leaves every board, rank, comparison and streak, and comes back when the voiding is undone.
Whatever else is later derived from standing results (a rating, say) follows from this one
change, from the voided day on.
"""

from collections.abc import Callable

from django.contrib.admin.models import CHANGE, LogEntry
from django.db import transaction
from django.utils import timezone

from game.models import DailyDeal, Result
from game.selectors.boards import ALL_TIME, boards_of
from game.services.boards import board_results_left


def result_void(*, result: Result, reason: str, by) -> bool:
    """Void `result` for `reason`, by the reviewer `by`; False if it was voided already (its
    first reason stays)."""
    return _mark(result, reason=reason, by=by, boards=boards_of)


def result_unvoid(*, result: Result, by) -> bool:
    """Undo a result's voiding: it stands again. False if it was not voided."""
    return _mark(result, reason=None, by=by, boards=boards_of)


def day_void(*, deal: DailyDeal, reason: str, by) -> bool:
    """Void a whole day (a bad deal): every result of it, ranked or practice, leaves every
    board; each stays in its player's history. False if the day was voided already."""
    return _mark(deal, reason=reason, by=by, boards=_boards_of_day)


def day_unvoid(*, deal: DailyDeal, by) -> bool:
    """Undo a day's voiding: its results stand again, save any voided on its own."""
    return _mark(deal, reason=None, by=by, boards=_boards_of_day)


def _boards_of_day(deal: DailyDeal) -> list[str]:
    return [f"daily:{deal.date.isoformat()}", f"deal:{deal.code}", ALL_TIME]


@transaction.atomic
def _mark(row, *, reason: str | None, by, boards: Callable[..., list[str]]) -> bool:
    """Void `row` (a Result or a DailyDeal) for `reason`, or undo its voiding (reason None)."""
    locked = type(row).objects.select_for_update().get(pk=row.pk)  # two reviewers: one decides
    if (locked.voided_at is None) == (reason is None):
        return False
    locked.voided_at = timezone.now() if reason is not None else None
    locked.void_reason = reason or ""
    locked.save(update_fields=["voided_at", "void_reason"])
    board_results_left(boards=boards(locked))
    message = f"Voided on review: {reason}" if reason is not None else "Voiding undone"
    LogEntry.objects.log_actions(by.pk, [locked], CHANGE, message, single_object=True)
    row.voided_at, row.void_reason = locked.voided_at, locked.void_reason
    return True
