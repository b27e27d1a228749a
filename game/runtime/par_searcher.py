"""Par: searched in this process's child, stored per code, told to the game whose end asked.

The daily deal's par is settled when the day's deal is certified (game.services.daily sends
`deal_certified`); any other code's the first time a game of it ends (`result_recorded`),
after that game's transaction commits. The search (engine.min_moves) takes up to a second, so
it runs in the search process (game.runtime.par_process); after a game's end it is waited on by
a thread of its own, never by the event loop or a database worker that moves wait on. At most
WAITING codes wait their turn: past that (more games ending than searches can keep up with), a
code waits for the next game of it to end. Once stored, the game's sockets hear
`{"type": "par", ...}` (docs/protocol.md); the result object carries it from then on
(selectors.results.result_summary).
"""

import asyncio
import logging
import threading

from asgiref.sync import async_to_sync
from django.conf import settings
from django.db import transaction
from django.dispatch import receiver

from game.models import Result
from game.runtime import par_process
from game.runtime.metrics import PAR_SEARCHES, PAR_WAITING
from game.selectors.par import par_of, par_searched
from game.services.groups import game_group
from game.services.pars import par_store
from game.services.publish import publish
from game.services.signals import deal_certified, result_recorded
from game.storage.dbthread import Workers

logger = logging.getLogger(__name__)
# One thread: two games of one code ending together compute its par once, one after the other.
_searcher = Workers(1)
WAITING = 1000
PUBLISH_WAIT = 5.0  # seconds; a running loop publishes in well under a millisecond
_places = threading.BoundedSemaphore(WAITING)  # one per code waiting for its search


def par_settled(code: str) -> int | None:
    """The code's stored par, else searched now (up to a second, in the search process) and
    stored."""
    if par_searched(code):
        return par_of(code)
    return par_store(code=code, par=par_process.min_moves(code, key=settings.DEAL_KEY))


@receiver(deal_certified, dispatch_uid="par")
def _deal_certified(*, code: str, **_) -> None:
    par_settled(code)  # a daily deal's par is known from its first game on


@receiver(result_recorded, dispatch_uid="par")
def par_after_end(*, result: Result, **_) -> None:
    """Once the ending game's transaction commits: its code's par computed (unless stored
    already) and told to the game's sockets."""
    if par_searched(result.code):
        return  # the result object carries it already
    code, game_id = result.code, result.game_id
    transaction.on_commit(lambda: _par_soon(code, game_id), robust=True)


def _par_soon(code: str, game_id: int) -> None:
    # The event loop that serves this process's sockets, when this thread was called from it
    # (a socket's database thread, or a page under daphne): the news is published from there.
    loop = async_to_sync(_running_loop)()
    if not _places.acquire(blocking=False):
        PAR_SEARCHES.labels("skipped").inc()
        return
    PAR_WAITING.inc()
    _searcher.submit(_settle_in_turn, code=code, game_id=game_id, loop=loop)


def _settle_in_turn(*, code: str, **kwargs) -> None:
    try:
        par_settle(code=code, **kwargs)
    except Exception:  # nobody waits on the job: say so, and the next game's end tries again
        logger.exception("the par of %s was not settled", code)
        PAR_SEARCHES.labels("failed").inc()
    else:
        PAR_SEARCHES.labels("settled").inc()
    finally:
        PAR_WAITING.dec()
        _places.release()


async def _running_loop() -> asyncio.AbstractEventLoop:
    return asyncio.get_running_loop()


def par_settle(
    *, code: str, game_id: int, loop: asyncio.AbstractEventLoop | None = None
) -> int | None:
    """The code's par, computed and stored if it was not, then published to the game (from
    `loop` while it runs, else from a loop of this thread's own)."""
    par = par_settled(code)
    if par is not None:
        group, message = (
            game_group(game_id=game_id),
            {"type": "game.par", "game": game_id, "par": par},
        )
        if loop is not None and loop.is_running():
            _publish_from(loop, group, message)
        else:
            async_to_sync(publish)(group, message)
    return par


def _publish_from(loop: asyncio.AbstractEventLoop, group: str, message: dict) -> None:
    """Publish from `loop`, waiting at most PUBLISH_WAIT: a loop that stops or stalls before
    it runs the publish loses this news, never the par thread (every later search waits on it)."""
    sent = asyncio.run_coroutine_threadsafe(publish(group, message), loop)
    try:
        sent.result(timeout=PUBLISH_WAIT)
    except TimeoutError:
        sent.cancel()
        logger.warning("the par for %s was not published: its loop did not run it", group)
