"""Server heartbeats on a clock of the test's own, for the tests of outages."""

from datetime import datetime, timedelta

from game.selectors.outages import BEAT_PERIOD
from game.services.server_beats import server_beat


def beat_from(
    clock, process: str, start: datetime, end: datetime, stretch: int | None = None
) -> int | None:
    """`process` beats every period from `start` to `end`, as its heartbeat does, its first
    beat extending `stretch`; the clock (time_machine's) is left at the last beat. Returns the
    stretch its next beat extends."""
    at = start
    while at <= end:
        clock.move_to(at)
        stretch = server_beat(process=process, stretch=stretch)
        at += BEAT_PERIOD
    return stretch


def seconds(n: float) -> timedelta:
    return timedelta(seconds=n)
