"""Faults on command for the tests of what a socket or a page answers when a part fails: a
database that refuses every write, as a read-only one does, on the sockets' database workers
or on the test's own connection."""

import contextlib
import functools

import pytest
from django.db import DatabaseError, connection

from game.storage import dbthread

READ_ONLY = {
    "sqlite": "PRAGMA query_only = {}",
    "postgresql": "SET default_transaction_read_only = {}",
}


class ReadOnlyStorage:
    """Between `refuse()` and `accept()`, every job of the sockets' database workers runs on a
    read-only connection: reads answer, writes fail as the database's own refusal. Each job
    sets it and takes it back, so that no pooled connection keeps it."""

    def __init__(self, monkeypatch) -> None:
        self.refusing = False
        run = dbthread._run

        def run_as_it_is_now(future, fn, args, kwargs):
            run(future, functools.partial(_read_only, fn) if self.refusing else fn, args, kwargs)

        monkeypatch.setattr(dbthread, "_run", run_as_it_is_now)

    def refuse(self) -> None:
        self.refusing = True

    def accept(self) -> None:
        self.refusing = False


@contextlib.contextmanager
def read_only_here():
    """This thread's connection refuses writes while the block runs: a test client's request
    runs on it (the test client keeps its connection open across requests)."""
    _set_read_only(True)
    try:
        yield
    finally:
        _set_read_only(False)


def _read_only(fn, *args, **kwargs):
    _set_read_only(True)
    try:
        return fn(*args, **kwargs)
    finally:
        with contextlib.suppress(DatabaseError):  # a broken connection is closed anyway
            _set_read_only(False)


def _set_read_only(on: bool) -> None:
    sql = READ_ONLY[connection.vendor].format("on" if on else "off")
    with connection.cursor() as cursor:
        cursor.execute(sql)


@pytest.fixture
def read_only_storage(monkeypatch):
    """A ReadOnlyStorage, writing again after the test."""
    return ReadOnlyStorage(monkeypatch)
