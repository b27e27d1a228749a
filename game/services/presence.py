"""Presence's rows: one for each open play socket and each spectator, in the database so that
every server process counts the same numbers (game.selectors.presence reads them).

Each row names the process that holds it (PROCESS). That process's sockets write them
(game.runtime.presence): play sockets in batches, a spectator's at once. Its heartbeat
refreshes them all (presence_beat); a row not refreshed for STALE_AFTER (its process died)
stops counting and is swept by the next heartbeat anywhere.
"""

import uuid

from django.db import IntegrityError, transaction
from django.utils import timezone

from game.models import Game, Presence
from game.selectors.presence import STALE_AFTER

PROCESS = uuid.uuid4().hex  # this server process


def presence_enter(*, channel: str, kind: str, user_id: int | None, game_id: int) -> None:
    """Count one socket until it leaves or its process stops beating."""
    defaults = {"process": PROCESS, "kind": kind, "user_id": user_id, "game_id": game_id}
    Presence.objects.update_or_create(
        channel=channel, defaults=defaults | {"seen_at": timezone.now()}
    )


def presence_apply(*, entered: list[dict], left: list[str]) -> None:
    """Store the play sockets that came and went, in one transaction. A socket whose game was
    deleted before its row was written (its account with it) is left out: kept, its row would
    fail this write and every later one."""
    try:
        _apply(entered, left)
    except IntegrityError:
        games = Game.objects.filter(pk__in={row["game_id"] for row in entered})
        alive = set(games.values_list("pk", flat=True))
        _apply([row for row in entered if row["game_id"] in alive], left)


def _apply(entered: list[dict], left: list[str]) -> None:
    with transaction.atomic():
        if left:
            Presence.objects.filter(channel__in=left).delete()
        if entered:
            rows = [Presence(**row) for row in entered]
            Presence.objects.bulk_create(rows, ignore_conflicts=True)  # a retried write


def presence_leave(*, channel: str) -> None:
    Presence.objects.filter(channel=channel).delete()


def presence_beat() -> int:
    """Refresh this process's rows; sweep rows nobody refreshed. Returns how many were swept."""
    Presence.objects.filter(process=PROCESS).update(seen_at=timezone.now())
    stale = Presence.objects.filter(seen_at__lt=timezone.now() - STALE_AFTER)
    return stale.delete()[0]
