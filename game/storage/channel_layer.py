"""The channel layer as this process finds it: a circuit breaker in front of every call that the
services, the runtime and the sockets make on it, so that a Redis that is down costs a player
nothing.

Nothing a player does waits on the layer: it carries only news for others (other tabs, spectators,
live boards) and the word that a session ended. A call that fails, or takes longer than CALL_S, is
logged (once an outage), counted (`h2h_channel_layer_errors_total{op}`, told through
game.storage.signals) and dropped; its caller goes on without it. After a failure the layer counts
as down, unless the call was only slow: one that takes longer than CALL_S while the layer answered
others meanwhile queued behind them (hundreds of sockets joining at once after a restart) and is
dropped with the layer still up. Down, calls are not made (`h2h_channel_layer_skipped_total{op}`),
so no tap waits out a connect timeout, but one call every RETRY_S is let through to find out whether
it answers again, and its answer brings the layer back. `outages` numbers the outages, so a socket
can tell that one happened since it last looked: the groups it joined may be gone with a restarted
Redis, and what they carried meanwhile is lost.
"""

import asyncio
import logging
import time
import weakref
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from game.storage.signals import layer_answering, layer_call_failed, layer_call_skipped

logger = logging.getLogger(__name__)

CALL_S = 1.0  # a call not answered by then counts as failed (a connect timeout is longer)
RETRY_S = 0.5  # while the layer is down, one call in this long finds out whether it is back


@dataclass
class Link:
    """One process's view of one channel layer."""

    up: bool = True
    retry_at: float = 0.0
    down_since: float = 0.0
    outages: int = 0
    answered_at: float = 0.0

    def resting(self) -> bool:
        """Down, and not yet time to try it again."""
        return not self.up and time.monotonic() < self.retry_at

    def allows(self) -> bool:
        """Whether to make a call now: always while up; while down, one call each RETRY_S."""
        if self.up:
            return True
        now = time.monotonic()
        if now < self.retry_at:
            return False
        self.retry_at = now + RETRY_S
        return True

    def failed(self, op: str, error: BaseException) -> None:
        layer_call_failed.send(sender=None, op=op)
        self.retry_at = time.monotonic() + RETRY_S
        if self.up:
            self.up, self.down_since, self.outages = False, time.monotonic(), self.outages + 1
            layer_answering.send(sender=None, up=False)
            logger.warning("channel layer down (%s: %r): live updates paused", op, error)

    def slow(self, op: str, since: float) -> bool:
        """Whether a call unanswered since `since` only queued behind others: the layer
        answered another call meanwhile (hundreds of sockets joining at once), so it is up."""
        if self.answered_at <= since:
            return False
        layer_call_failed.send(sender=None, op=op)
        return True

    def answered(self) -> None:
        self.answered_at = time.monotonic()
        if not self.up:
            self.up = True
            layer_answering.send(sender=None, up=True)
            down = time.monotonic() - self.down_since
            logger.warning("channel layer back after %.1f s: live updates resume", down)


_links: "weakref.WeakKeyDictionary[object, Link]" = weakref.WeakKeyDictionary()


def link_of(layer) -> Link:
    """The process's view of `layer` (each test's fresh layer has its own)."""
    link = _links.get(layer)
    if link is None:
        link = _links[layer] = Link()
    return link


async def ask_layer(op: str, question: Callable[[], Awaitable], *, layer, unanswered=None):
    """`question()`'s answer from the layer, or `unanswered` if the layer is down, fails or
    is too slow (logged, counted, dropped). `op` names the call in the metrics."""
    link = link_of(layer)
    if not link.allows():
        layer_call_skipped.send(sender=None, op=op)
        return unanswered
    asked_at = time.monotonic()
    try:
        async with asyncio.timeout(CALL_S):
            answer = await question()
    except TimeoutError as error:
        if not link.slow(op, asked_at):
            link.failed(op, error)
        return unanswered
    except Exception as error:  # whatever the layer raises: it is not the caller's concern
        link.failed(op, error)
        return unanswered
    link.answered()
    return answer


async def on_layer(op: str, call: Callable[[], Awaitable], *, layer) -> bool:
    """Make `call()` on the layer (a send, a join, a leave) unless it is down; True if it was
    made and answered in time."""
    return await ask_layer(op, lambda: _made(call()), layer=layer, unanswered=False)


def layer_failed(layer, op: str, error: BaseException) -> None:
    """A call made on the layer outside ask_layer failed (a socket's receive)."""
    link_of(layer).failed(op, error)


async def _made(call: Awaitable) -> bool:
    await call
    return True
