"""The quick race's reads: a player's Race rating, who waits, and the rooms a waiter may still
join (the ghost offered to someone who waited long is selectors.ghosts')."""

from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import Count, QuerySet

from game.domain.quick_match import MAX_RACERS
from game.models import QuickEntry, RaceRoom, RatingKind

START_RATING = 1500.0  # a player never rated races as a newcomer does (Glicko-2's start)


def quick_span(span: timedelta) -> timedelta:
    """A span of the quick race's clock in wall-clock time (settings.QUICK_RACE_SPEED)."""
    return span / settings.QUICK_RACE_SPEED


def quick_waited_s(entry: QuickEntry, now: datetime) -> float:
    """How long the entry has waited, in seconds of the quick race's clock."""
    return (now - entry.joined_at).total_seconds() * settings.QUICK_RACE_SPEED


def race_rating(*, player) -> float:
    """The player's Race rating; one never rated counts as a newcomer."""
    ratings = player.ratings.filter(kind=RatingKind.RACE).values_list("rating", flat=True)
    return next(iter(ratings), START_RATING)


def quick_waiting(*, now: datetime) -> QuerySet[QuickEntry]:
    """Entries waiting for a match whose lease holds: an expired one is never matched."""
    return QuickEntry.objects.filter(room__isnull=True, lease_until__gte=now)


def quick_openings(*, now: datetime, margin: timedelta) -> dict[int, list[float]]:
    """Quick rooms counting down that a waiter may still join, by id, with their racers'
    ratings: a seat left, and at least `margin` before the start, so that the newcomer's
    entry is in before the racers' games are made."""
    rooms = RaceRoom.objects.filter(
        quick=True, status=RaceRoom.Status.RUNNING, starts_at__gt=now + margin
    )
    open_ids = rooms.annotate(racers=Count("entries")).filter(racers__lt=MAX_RACERS)
    entries = QuickEntry.objects.filter(room__in=open_ids.values("pk"))
    openings: dict[int, list[float]] = {}
    for room_id, rating in entries.values_list("room_id", "rating"):
        openings.setdefault(room_id, []).append(rating)
    return openings


def quick_entries_of(*, channels: list[str]) -> dict[str, QuickEntry]:
    """The entries of these sockets, by channel, with their rooms."""
    entries = QuickEntry.objects.filter(channel__in=channels).select_related("room")
    return {entry.channel: entry for entry in entries}
