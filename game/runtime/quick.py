"""The quick race in this process: its quick sockets, and the one round that serves them.

While the process holds quick sockets it runs a round every ROUND (of the quick race's
clock): it renews their leases, matches whoever can be matched (services.quick_round, which
any process may win), hands the rooms it changed to the race clock (which times their
start), and tells each socket what changed for it. A match made by another process reaches
its sockets at once over the channel layer ("quick.matched"), and by the next round if the
layer is down: the queue itself is in the database.
"""

import asyncio
import logging
from datetime import timedelta
from typing import Protocol

from game.runtime.races import race_clock
from game.selectors.quick import quick_span
from game.services.quick import QuickRound, quick_round
from game.storage.db import db

logger = logging.getLogger(__name__)

ROUND = timedelta(seconds=1)


class QuickSocket(Protocol):
    async def quick_seen(self, found: QuickRound) -> None: ...


class QuickQueue:
    """This process's quick sockets by channel, and the task whose rounds serve them."""

    def __init__(self) -> None:
        self.sockets: dict[str, QuickSocket] = {}
        self.task: asyncio.Task | None = None
        self.one_at_a_time: asyncio.Lock | None = None

    async def add(self, channel: str, socket: QuickSocket) -> None:
        """Serve a socket whose player is queued; a round at once, to match them now."""
        self.sockets[channel] = socket
        loop = asyncio.get_running_loop()
        if self.task is None or self.task.done() or self.task.get_loop() is not loop:
            self.one_at_a_time = asyncio.Lock()
            self.task = loop.create_task(self._rounds())
        await self.round()

    def remove(self, channel: str) -> None:
        """The socket closed or was matched: its lease is no longer renewed here."""
        self.sockets.pop(channel, None)
        if not self.sockets and self.task is not None:
            self.task.cancel()
            self.task = None

    async def round(self) -> None:
        assert self.one_at_a_time is not None
        async with self.one_at_a_time:
            found = await db(quick_round)(channels=list(self.sockets))
        for snapshot in found.rooms:
            race_clock.time_start(snapshot)
        for channel, socket in list(self.sockets.items()):
            try:
                await socket.quick_seen(found)
            except Exception as error:  # one socket's client gone: the others are still told
                logger.warning("quick race: socket %s was not told: %r", channel, error)

    async def _rounds(self) -> None:
        while True:
            await asyncio.sleep(quick_span(ROUND).total_seconds())
            try:
                await self.round()
            except Exception as error:  # the database away: the next round tries again
                logger.warning("quick race: a round failed: %r", error)


quick_queue = QuickQueue()
