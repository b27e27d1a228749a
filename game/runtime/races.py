"""The race clock: the start of every race this process shows counting down, timed once.

A room's sockets each see its countdown begin (the room frame after the last racer's ready)
and hand the room to the clock, which keeps one timer per room whatever the number of
sockets. Every process that shows the room times it too, so a start survives the loss of any
one process; at the instant their timers meet in services.race_begin_if_due, whose one
conditional update lets exactly one of them begin the race.
"""

import asyncio
import datetime
import logging

from django.utils import timezone

from game.services.races import race_begin_if_due
from game.storage.db import db
from game.storage.failures import UNAVAILABLE

logger = logging.getLogger(__name__)

RETRY_S = 1.0  # a database that cannot take the start now is asked again this often


class RaceClock:
    """One timer per room counting down in this process, each ending in race_begin_if_due."""

    def __init__(self) -> None:
        self.timers: dict[str, asyncio.Task] = {}

    def time_start(self, snapshot: dict) -> None:
        """Time the start of the room in `snapshot` (race_snapshot) if it counts down and this
        process does not time it yet."""
        room = snapshot["room"]
        if not counting_down(snapshot) or self._timing(room):
            return
        starts_at = datetime.datetime.fromisoformat(snapshot["starts_at"])
        timer = self.timers[room] = asyncio.create_task(self._begin_at(room, starts_at))
        timer.add_done_callback(lambda done: self._forget(room, done))

    def _timing(self, room: str) -> bool:
        """Whether a timer on this event loop times the room already (the tests run each on a
        loop of its own)."""
        timer = self.timers.get(room)
        if timer is None or timer.done():
            return False
        return timer.get_loop() is asyncio.get_running_loop()

    async def _begin_at(self, room: str, starts_at: datetime.datetime) -> None:
        # asyncio's clock is not the wall clock: it may wake a hair before the instant
        while (delay := (starts_at - timezone.now()).total_seconds()) > 0:
            await asyncio.sleep(delay)
        while True:
            try:
                await db(race_begin_if_due)(room=room)
                return
            except UNAVAILABLE as error:
                logger.warning("race %s: the start was not stored (%r): again", room, error)
                await asyncio.sleep(RETRY_S)

    def _forget(self, room: str, timer: asyncio.Task) -> None:
        if self.timers.get(room) is timer:
            del self.timers[room]
        if not timer.cancelled() and timer.exception():
            logger.error("race %s: the start failed", room, exc_info=timer.exception())


def counting_down(snapshot: dict) -> bool:
    """Whether the room counts down to a start that has not happened: running, and no racer's
    game made yet (they are made at the start instant)."""
    return snapshot["status"] == "running" and not any(e["game"] for e in snapshot["entries"])


race_clock = RaceClock()
