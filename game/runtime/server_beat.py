"""This process's heartbeat in the database: while it runs, it records that it is alive every
BEAT_PERIOD (game.services.server_beats), so that the time no process was alive is left out of
games' times (game.selectors.outages).

Unlike presence's heartbeat, which runs only while the process holds sockets, this one runs
from the process's first connection of any kind (an HTTP request, a probe, a socket) for as
long as the process lives: a player who closed their tab must find the servers alive, or their
own absence would look like an outage. settings.SERVER_BEAT turns it off (the tests do).
"""

import asyncio
import logging
from collections.abc import Awaitable, Callable

from django.conf import settings

from game.selectors.outages import BEAT_PERIOD
from game.services.presence import PROCESS
from game.services.server_beats import server_beat
from game.storage.db import db

logger = logging.getLogger(__name__)

ASGIApplication = Callable[[dict, Callable, Callable], Awaitable[None]]


class _ServerBeat:
    """One task per process that beats every period; a beat that fails is logged and the next
    one tries again (a database that is down is an outage, and recorded as one). A run of
    failed beats is logged once, at its first, and its end once: not every 2 s of an outage."""

    def __init__(self) -> None:
        self.task: asyncio.Task | None = None
        self.stretch: int | None = None
        self.failing = False

    def start(self) -> None:
        loop = asyncio.get_running_loop()
        if self.task is None or self.task.done() or self.task.get_loop() is not loop:
            self.task = loop.create_task(self.run())

    def stop(self) -> None:
        if self.task is not None and not self.task.done():
            self.task.cancel()
        self.task = None

    async def run(self) -> None:
        while True:
            await self.beat()
            await asyncio.sleep(BEAT_PERIOD.total_seconds())

    async def beat(self) -> None:
        try:
            self.stretch = await db(server_beat)(process=PROCESS, stretch=self.stretch)
        except Exception as error:
            if not self.failing:
                logger.warning("this process's heartbeat was not recorded: %r", error)
            self.failing = True
            return
        if self.failing:
            logger.warning("this process's heartbeat is recorded again")
        self.failing = False


_beat = _ServerBeat()


def beating(application: ASGIApplication) -> ASGIApplication:
    """`application`, starting this process's heartbeat with its first connection."""

    async def started_on_first_call(scope: dict, receive: Callable, send: Callable) -> None:
        if settings.SERVER_BEAT:
            _beat.start()
        await application(scope, receive, send)

    return started_on_first_call
