"""A ghost's playback for one play socket: its progress frames on the server's clock.

The ghost (game.selectors.ghosts) is a recorded timeline of progress numbers. Its playback
starts at the player's first move: each point is sent when as much time has passed since
that move as had passed since the ghost's own first move. So a socket that opens late (a
reload, a second tab) shows the ghost where it is now, then follows it. One task per socket,
cancelled when the socket closes or the player's game ends.
"""

import asyncio
import datetime
import logging
from collections.abc import Awaitable, Callable

from django.utils import timezone

from game.selectors.ghosts import Ghost, GhostPoint

logger = logging.getLogger(__name__)

Send = Callable[[dict], Awaitable[None]]


def ghost_frame(point: GhostPoint) -> dict:
    """The frame of one point: progress numbers only, never a card or a tap."""
    return {"type": "ghost", **point._asdict()}


def ghost_end_frame(ghost: Ghost, winner: str) -> dict:
    """The race is over: who won ("you", "ghost" or "tie") and where the ghost ended."""
    return {"type": "ghost_end", "winner": winner, **ghost.last._asdict()}


def point_at(ghost: Ghost, t_ms: int) -> GhostPoint:
    """The ghost's progress `t_ms` after its first move."""
    reached = [point for point in ghost.timeline if point.t_ms <= t_ms]
    return reached[-1]


class GhostRun:
    """One socket's playback of a ghost, from the player's first move (`begin`) on."""

    def __init__(self, ghost: Ghost, send: Send, now=timezone.now) -> None:
        self.ghost, self.send, self.now = ghost, send, now
        self.first_move: datetime.datetime | None = None
        self.task: asyncio.Task | None = None

    async def show(self) -> None:
        """Send where the ghost is now: the deal as dealt until the player's first move."""
        if self.first_move is None:
            return await self.send(ghost_frame(self.ghost.timeline[0]))
        await self.send(ghost_frame(point_at(self.ghost, self._elapsed_ms())))

    def begin(self, first_move: datetime.datetime) -> None:
        """The player made their first move at `first_move`: the ghost plays from then."""
        if self.first_move is not None:
            return
        self.first_move = first_move
        self.task = asyncio.create_task(self._play())
        self.task.add_done_callback(_reported)

    def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()

    async def end(self, winner: str) -> None:
        """The player's game is over: no more playback, and who won."""
        self.stop()
        await self.send(ghost_end_frame(self.ghost, winner))

    def _elapsed_ms(self) -> int:
        return int((self.now() - self.first_move).total_seconds() * 1000)

    async def _play(self) -> None:
        await self.show()
        for point in [p for p in self.ghost.timeline if p.t_ms > self._elapsed_ms()]:
            # asyncio's clock is not the wall clock: a wake-up a hair early sleeps again
            while (wait_ms := point.t_ms - self._elapsed_ms()) > 0:
                await asyncio.sleep(wait_ms / 1000)
            await self.send(ghost_frame(point))


def _reported(task: asyncio.Task) -> None:
    """A playback that failed is logged: the game itself goes on without it."""
    if not task.cancelled() and task.exception() is not None:
        logger.error("a ghost's playback failed", exc_info=task.exception())
