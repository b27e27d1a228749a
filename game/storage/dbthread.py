"""The play sockets' database threads: their connections kept open, moves group-committed.

Why threads of their own: Channels' `database_sync_to_async` opens and closes a connection
around every call (CONN_MAX_AGE is 0), and closing SQLite's last connection checkpoints the
WAL; that cost more than the move itself. A worker here keeps its connection until it has
had no work for IDLE_CLOSE_S, so an idle server (or a finished test) holds none.

Moves have workers of their own, apart from everything else (a socket's connect queries, the
presence rows), so a move never waits behind those. SQLite gets one of each: it takes
one writer at a time, and the others' transactions are short. PostgreSQL gets
WORKERS_POSTGRESQL of each: a move then need not wait for another batch's round trip and WAL
flush either.

Group commit: moves that arrive while every worker is committing wait and go together in
the next transaction, each acknowledged only after the commit that stored it (`append`).
A move's trip is the hot path, so it takes asyncio's own executor hop rather than asgiref's
sync_to_async (needed only for on_commit broadcasts, and a move's write has none).
"""

import asyncio
import queue
import threading
import time
import weakref
from concurrent.futures import Executor, Future

from asgiref.sync import sync_to_async
from django.db import DatabaseError, connection, connections
from django.utils import timezone

from game.storage.appends import Append, appends_checkpoint, appends_store
from game.storage.signals import moves_stored

IDLE_CLOSE_S = 1.0
MAX_BATCH = 200  # moves per transaction: 800 parameters, far below any database's limit
WORKERS_POSTGRESQL = 4
CHECKPOINT_S = 1.0


class Workers(Executor):
    """Database threads sharing one queue of jobs; each closes its own connection when idle."""

    def __init__(self, count: int) -> None:
        self.count, self.jobs, self.threads = count, queue.SimpleQueue(), []
        self.lock = threading.Lock()

    def submit(self, fn, /, *args, **kwargs) -> Future:
        future: Future = Future()
        self.jobs.put((future, fn, args, kwargs))
        if len(self.threads) < self.count:
            self._start_one()
        return future

    def _start_one(self) -> None:
        with self.lock:
            if len(self.threads) < self.count:
                name = f"h2h-db-{len(self.threads)}"
                thread = threading.Thread(target=self._work, name=name, daemon=True)
                self.threads.append(thread)
                thread.start()

    def _work(self) -> None:
        seen = _lost[0]
        while True:
            try:
                future, fn, args, kwargs = self.jobs.get(timeout=IDLE_CLOSE_S)
            except queue.Empty:
                connection.close()  # this thread's: nothing to do for a while
                future, fn, args, kwargs = self.jobs.get()
            if seen != _lost[0]:
                seen = _lost[0]
                _drop_if_lost()
            if future.set_running_or_notify_cancel():
                _run(future, fn, args, kwargs)


# Connections found lost so far. One lost connection means the database may have restarted,
# and then every other one is dead too, though it looks fine until used: each worker tests its
# own before its next job, and the pool its idle ones, rather than fail one move on each.
_lost = [0]


def _run(future: Future, fn, args, kwargs) -> None:
    try:
        result = fn(*args, **kwargs)
    except DatabaseError as error:
        _close_after_error()
        future.set_exception(error)
    except BaseException as error:
        future.set_exception(error)
    else:
        future.set_result(result)


def _close_after_error() -> None:
    """This thread's connection may be broken: closed, so that the next job reconnects."""
    lost = getattr(connection.connection, "broken", False)  # psycopg's: the server went away
    connection.close()
    if lost:
        _lost[0] += 1
        pool = getattr(connection, "pool", None)  # PostgreSQL's; SQLite has none
        if pool is not None:
            pool.check()


def _drop_if_lost() -> None:
    if connection.connection is not None and not connection.is_usable():
        connection.close()


def _worker_count() -> int:
    return 1 if connections["default"].vendor == "sqlite" else WORKERS_POSTGRESQL


_workers = Workers(_worker_count())
# Moves get workers of their own, so a socket's connect queries never hold a move up.
_movers = Workers(_worker_count())


def on_db_thread(func):
    """`func` as a coroutine function that runs on a database thread.

    Inside it, `async_to_sync` (on_commit broadcasts) reaches back to the calling loop.
    """
    return sync_to_async(func, thread_sensitive=False, executor=_workers)


class _Waiting:
    """The moves of one event loop waiting for a commit, and the commits running for them."""

    def __init__(self) -> None:
        self.moves: list[tuple[Append, asyncio.Future]] = []
        self.committing = 0  # counted down by the committer itself as it leaves: no lost wake-up
        self.tasks: set[asyncio.Task] = set()  # held so that they are not collected mid-way


_waiting: "weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Waiting]" = (
    weakref.WeakKeyDictionary()
)


async def append(move: Append) -> bool:
    """Store one move in the next group commit; False if its game had moved meanwhile."""
    loop = asyncio.get_running_loop()
    waiting = _waiting.setdefault(loop, _Waiting())
    future = loop.create_future()
    waiting.moves.append((move, future))
    if waiting.committing < _movers.count:
        waiting.committing += 1
        task = loop.create_task(_commit_waiting(waiting))
        waiting.tasks.add(task)
        task.add_done_callback(waiting.tasks.discard)
    return await future


async def _commit_waiting(waiting: _Waiting) -> None:
    loop = asyncio.get_running_loop()
    try:
        while waiting.moves:
            batch = waiting.moves[:MAX_BATCH]
            del waiting.moves[:MAX_BATCH]
            try:
                movers = _movers
                stored = await loop.run_in_executor(movers, _store, [m for m, _ in batch])
                _checkpoint_soon(movers)
            except Exception as error:  # every waiter hears it (storage.failures says what)
                _settle(batch, error=error)
            else:
                _settle(batch, stored=stored)
    finally:
        waiting.committing -= 1


def _settle(batch, *, stored=None, error=None) -> None:
    for index, (_, future) in enumerate(batch):
        if future.done():  # its socket went away meanwhile
            continue
        if error is not None:
            future.set_exception(error)
        else:
            future.set_result(stored[index])


def _store(moves: list[Append]) -> list[bool]:
    started = time.perf_counter()
    try:
        return appends_store(appends=moves, at=timezone.now(), checkpoints=False)
    finally:
        seconds = time.perf_counter() - started
        moves_stored.send(sender=None, moves=len(moves), seconds=seconds)


_checkpointed = [0.0]


def _checkpoint_soon(movers: Workers) -> None:
    """SQLite: fold the WAL into the database every CHECKPOINT_S, on the other worker.

    The movers' connections never checkpoint (a checkpoint's fsyncs would stall the moves
    committing at that moment, the human pace's slowest taps); this one does not block them.
    """
    now = time.monotonic()
    if movers is _workers or now - _checkpointed[0] < CHECKPOINT_S:
        return
    if connections["default"].vendor == "sqlite":
        _checkpointed[0] = now
        _workers.submit(appends_checkpoint)
