"""Presence's counts: how many play now, who plays today's deal, how many watch a game.

Read from the presence rows (game.services.presence writes them), so that every server process
reads the same numbers. A row not refreshed for STALE_AFTER (its process died) no longer counts.
"""

from datetime import timedelta

from django.db.models import Q, QuerySet
from django.urls import reverse
from django.utils import timezone

from game.models import Presence
from game.selectors.abandoned import abandoned_before, last_move_at
from game.selectors.daily import daily_today
from game.selectors.races import racing_game_ids

STALE_AFTER = timedelta(seconds=60)
LISTED = 12  # players of today's deal named, with a watch link, on the daily board


def playing_now() -> int:
    """How many players have a board open."""
    return _playing().values("user_id").distinct().count()


def watchers_of(*, game_id: int) -> int:
    """How many spectators watch a game."""
    return _counted(Presence.Kind.WATCH).filter(game_id=game_id).count()


def presence_snapshot() -> dict:
    """{"playing", "daily_playing", "daily"}: everyone playing, and who plays today's deal."""
    today = _playing().filter(game__daily__date=daily_today())
    rows = today.order_by("game__started_at", "game_id")
    listed = list(rows.values_list("user__profile__display_name", "game_id").distinct()[:LISTED])
    racing = racing_game_ids(game_ids=[game for _, game in listed])
    daily = [
        {"player": name, "watch_url": reverse("watch", args=[game])}
        for name, game in listed
        if game not in racing  # nobody watches a race game while its race runs
    ]
    daily_playing = today.values("user_id").distinct().count()
    return {"playing": playing_now(), "daily_playing": daily_playing, "daily": daily}


def _counted(kind: str) -> QuerySet[Presence]:
    return Presence.objects.filter(kind=kind, seen_at__gte=timezone.now() - STALE_AFTER)


def _playing() -> QuerySet[Presence]:
    """The boards open on games that are not abandoned: a board left open a day on a game
    never moved since is not someone playing (game.selectors.abandoned)."""
    boards = _counted(Presence.Kind.PLAY).alias(
        last_moved=last_move_at(game="game_id", started_at="game__started_at")
    )
    moving = Q(last_moved__gt=abandoned_before()) | Q(last_moved__isnull=True)
    return boards.filter(moving)
