"""Outages: the stretches of time in which no server process was alive, which a game's time
leaves out (docs/protocol.md, "Results and the clock").

Every process beats every BEAT_PERIOD and its beats make stretches (game.models.ServerBeat,
written by game.services.server_beats): a stretch vouches for its process from its first beat
to BEAT_TOLERANCE after its latest, as long as a next beat would still have extended it, so a
result's time is the same when it is written as when the audit derives it again later.

An outage is a gap between the stretches of every process, bounded by a beat on its left and
by a beat or the instant asked about (when a server is answering) on its right: no move could
be stored in it, whether the servers or their database were down. Before the first beat ever
recorded there is no outage: nothing was watching. A player's own disconnection is no outage,
since a server was alive to take their moves.
"""

from collections.abc import Iterable
from datetime import datetime, timedelta

from game.models import ServerBeat

BEAT_PERIOD = timedelta(seconds=2)
# A beat later than this after its process's last one starts a new stretch: the period with
# room for a beat that waited on a busy database worker. It bounds what a game's time keeps of
# an outage.
BEAT_TOLERANCE = 2 * BEAT_PERIOD


def outage_ms(*, start: datetime, end: datetime) -> int:
    """The milliseconds of outage between `start` and `end`, a moment a server was alive."""
    if end <= start:
        return 0
    stretches = ServerBeat.objects.filter(since__lte=end, until__gte=start - BEAT_TOLERANCE)
    spans = list(stretches.order_by("since").values_list("since", "until"))
    seen_before = bool(spans) and spans[0][0] < start
    if not seen_before:
        seen_before = ServerBeat.objects.filter(since__lt=start).exists()
    return _uncovered(spans, start, end, seen_before) // timedelta(milliseconds=1)


def _uncovered(
    spans: Iterable[tuple[datetime, datetime]], start: datetime, end: datetime, seen_before: bool
) -> timedelta:
    """The time in [start, end] that no stretch covers and a beat precedes, the stretches in
    order of their start."""
    covered_to, left_bound, gaps = start, seen_before, timedelta(0)
    for since, until in spans:
        if since > covered_to and left_bound:
            gaps += min(since, end) - covered_to
        covered_to = max(covered_to, until + BEAT_TOLERANCE)
        left_bound = True
        if covered_to >= end:
            return gaps
    return gaps + (end - covered_to if left_bound else timedelta(0))


def game_time_ms(*, started_at: datetime, finished_at: datetime) -> int:
    """A game's time on the server clock: from the deal's first showing to the final move,
    without the outages between."""
    span = max(0, (finished_at - started_at) // timedelta(milliseconds=1))
    return max(0, span - outage_ms(start=started_at, end=finished_at))
