"""The quick race's reads: a player's Race rating, who waits, the rooms a waiter may still
join, and the ghost offered to someone who waited long with nobody to match."""

import secrets
from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import Count, QuerySet
from django.urls import reverse

from game.domain.quick_match import MAX_RACERS
from game.models import QuickEntry, RaceRoom, RatingKind, Result
from game.selectors.daily import daily_today

START_RATING = 1500.0  # a player never rated races as a newcomer does (Glicko-2's start)
GHOST_CHOICES = 200  # the ghost is the best result of a deal won among the latest this many


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


def ghost_offer_url() -> str | None:
    """A ghost race's page for someone left waiting: the best result of a deal that was won
    lately, never of a daily deal still running, nor a game of a race being run."""
    won = Result.objects.filter(won=True, voided_at__isnull=True).exclude(
        daily__date__gte=daily_today()
    )
    won = won.exclude(game__race_entry__room__status=RaceRoom.Status.RUNNING)
    codes = list(won.order_by("-finished_at").values_list("code", flat=True)[:GHOST_CHOICES])
    if not codes:
        return None
    best = won.filter(code=secrets.choice(codes)).order_by(*Result._meta.ordering).first()
    return f"{reverse('play', args=[best.code])}?ghost={best.game_id}"
