"""The play sockets' database thread: one per process, its connection kept, moves group-committed.

Why one thread of its own: Channels' `database_sync_to_async` opens and closes a connection
around every call (CONN_MAX_AGE is 0), and closing SQLite's last connection checkpoints the
WAL; that cost more than the move itself. SQLite takes one writer at a time anyway, so one
thread that keeps its connection never waits on the busy timeout. The connection is closed
after IDLE_CLOSE_S without work, so an idle server (or a finished test) holds none.

Group commit: moves that arrive while a transaction is committing wait and go together in
the next one, each acknowledged only after the commit that stored it (`append`). A move's
trip is the hot path, so it takes asyncio's own executor hop rather than asgiref's
sync_to_async (which it needs only for on_commit broadcasts, and a move's write has none).
"""

import asyncio
import threading
import time
import weakref
from concurrent.futures import ThreadPoolExecutor

from asgiref.sync import sync_to_async
from django.db import DatabaseError, connection
from django.utils import timezone

from game.services.appends import Append, appends_store

IDLE_CLOSE_S = 1.0
MAX_BATCH = 200  # moves per transaction: 800 parameters, far below any database's limit

_executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="h2h-db")


def on_db_thread(func):
    """`func` as a coroutine function that runs on the database thread.

    Inside it, `async_to_sync` (on_commit broadcasts) reaches back to the calling loop.
    """
    return sync_to_async(_kept(func), thread_sensitive=False, executor=_executor)


def _kept(func):
    def run(*args, **kwargs):
        try:
            return func(*args, **kwargs)
        except DatabaseError:
            connection.close()  # it may be broken: the next call reconnects
            raise
        finally:
            _idle.touch()

    return run


class _IdleClose:
    """Closes the database thread's connection once it has had no work for IDLE_CLOSE_S."""

    def __init__(self) -> None:
        self.lock, self.timer, self.used = threading.Lock(), None, 0.0

    def touch(self) -> None:
        self.used = time.monotonic()
        self._arm()

    def _arm(self) -> None:
        with self.lock:
            if self.timer is None:
                self.timer = threading.Timer(IDLE_CLOSE_S, self._expire)
                self.timer.daemon = True
                self.timer.start()

    def _expire(self) -> None:
        with self.lock:
            self.timer = None
        _executor.submit(self._close_if_idle)

    def _close_if_idle(self) -> None:
        if time.monotonic() - self.used >= IDLE_CLOSE_S:
            connection.close()
        else:
            self._arm()


_idle = _IdleClose()


class _Waiting:
    """The moves of one event loop waiting for a commit, and whether a commit is running."""

    def __init__(self) -> None:
        self.moves: list[tuple[Append, asyncio.Future]] = []
        self.task: asyncio.Task | None = None


_waiting: "weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Waiting]" = (
    weakref.WeakKeyDictionary()
)


async def append(move: Append) -> bool:
    """Store one move in the next group commit; False if its game had moved meanwhile."""
    loop = asyncio.get_running_loop()
    waiting = _waiting.setdefault(loop, _Waiting())
    future = loop.create_future()
    waiting.moves.append((move, future))
    if waiting.task is None:
        waiting.task = loop.create_task(_commit_waiting(waiting))
    return await future


async def _commit_waiting(waiting: _Waiting) -> None:
    try:
        while waiting.moves:
            batch = waiting.moves[:MAX_BATCH]
            del waiting.moves[:MAX_BATCH]
            try:
                moves = [move for move, _ in batch]
                stored = await asyncio.get_running_loop().run_in_executor(_executor, _store, moves)
            except Exception as error:  # every waiter hears it; its socket closes (1011)
                _settle(batch, error=error)
            else:
                _settle(batch, stored=stored)
    finally:
        waiting.task = None


def _settle(batch, *, stored=None, error=None) -> None:
    for index, (_, future) in enumerate(batch):
        if future.done():  # its socket went away meanwhile
            continue
        if error is not None:
            future.set_exception(error)
        else:
            future.set_result(stored[index])


@_kept
def _store(moves: list[Append]) -> list[bool]:
    return appends_store(appends=moves, at=timezone.now())
