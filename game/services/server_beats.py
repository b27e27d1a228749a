"""Server beats: each process records that it is alive (game.runtime.server_beat times it), so
that the outages, when none was, can be left out of a game's time (game.selectors.outages)."""

from datetime import datetime

from django.db import transaction
from django.utils import timezone

from game.models import ServerBeat
from game.selectors.outages import BEAT_TOLERANCE


def server_beat(*, process: str, stretch: int | None) -> int:
    """Record a beat of `process` now: it extends its stretch `stretch` if its last beat came
    within the tolerance, else starts a new one. Returns the stretch to extend next."""
    now = timezone.now()
    if stretch is not None:
        recent = ServerBeat.objects.filter(pk=stretch, until__gte=now - BEAT_TOLERANCE)
        if recent.update(until=now):
            return stretch
    return ServerBeat.objects.create(process=process, since=now, until=now).pk


def server_beats_compact(*, before: datetime) -> int:
    """Merge the stretches that ended before `before` into as few as cover the same time (the
    outages stay exactly as they were, for the audit to re-derive old results' times).
    Returns how many stretches there were."""
    with transaction.atomic():
        old = ServerBeat.objects.filter(until__lt=before)
        spans = list(old.order_by("since").values_list("since", "until"))
        merged = _merged(spans)
        if len(merged) < len(spans):
            old.delete()
            ServerBeat.objects.bulk_create(
                ServerBeat(process="", since=since, until=until) for since, until in merged
            )
    return len(spans)


def _merged(spans: list[tuple[datetime, datetime]]) -> list[tuple[datetime, datetime]]:
    """Stretches in order of their start, each joined with the next one it covers: a stretch
    covers the tolerance past its last beat."""
    merged: list[tuple[datetime, datetime]] = []
    for since, until in spans:
        if merged and since <= merged[-1][1] + BEAT_TOLERANCE:
            merged[-1] = (merged[-1][0], max(merged[-1][1], until))
        else:
            merged.append((since, until))
    return merged
