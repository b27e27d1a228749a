"""Appending moves to many games' logs at once: the write every move makes, kept lean.

A move is stored only if its game is still open and its log still has the length the move
was made on: the length is the lock. A game that another tab, process or page moved
meanwhile matches no row, and its caller reloads the log and decides again.

`appends_store` is the hot path, a transaction of its own on the database driver's
connection, beside Django's transaction machinery (which costs more than SQLite's own work):
- SQLite: BEGIN IMMEDIATE, one UPDATE ... FROM (VALUES ...) RETURNING, one INSERT, COMMIT;
- PostgreSQL: the same as one statement (a data-modifying WITH) in autocommit: one round trip.
Django's connection is in autocommit before and after, as Django expects.
`appends_write` does the same inside a caller's Django transaction (a final move, whose
result is written in the same transaction).

A statement's text depends only on how many moves and rows it carries, so each is built once
and kept; at most STATEMENTS of each kind, the most recently used, since a batch's sizes
(up to 200 moves and 400 rows, and on PostgreSQL every pair of them) would otherwise keep
tens of thousands of statements of up to tens of kilobytes each.
"""

from collections.abc import Sequence
from datetime import datetime
from functools import cache, lru_cache
from typing import NamedTuple

from django.db import connection

from game.models import Action, Game

STATEMENTS = 256


class Append(NamedTuple):
    """A move to store: its game, the log length it was made on, its actions, its seq."""

    game_id: int
    expected: int
    actions: tuple[str, ...]
    seq: int | None


def appends_store(
    *, appends: Sequence[Append], at: datetime, checkpoints: bool = True
) -> list[bool]:
    """Store the appends in one transaction, committed on return; which of them were stored.

    `checkpoints=False` (SQLite): this connection leaves the WAL to `appends_checkpoint`.
    """
    assert not connection.in_atomic_block, "appends_store runs its own transaction"
    connection.ensure_connection()
    with connection.wrap_database_errors:
        if connection.vendor == "postgresql":
            return _one_statement(appends, at)
        if not checkpoints and getattr(connection, "_h2h_no_checkpoints", None) is not (
            driver := connection.connection
        ):
            driver.execute("PRAGMA wal_autocheckpoint = 0")
            connection._h2h_no_checkpoints = driver
        return _sqlite_transaction(appends, at)


def appends_checkpoint() -> None:
    """SQLite: copy the WAL's committed pages into the database without waiting for anyone."""
    connection.ensure_connection()
    with connection.wrap_database_errors:
        connection.connection.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()


def appends_write(*, appends: Sequence[Append], at: datetime) -> list[bool]:
    """appends_store's writes inside the caller's transaction (Django's atomic)."""
    assert connection.in_atomic_block, "appends_write runs in the caller's transaction"
    connection.ensure_connection()
    with connection.wrap_database_errors:
        return _update_then_insert(appends, at)


def _sqlite_transaction(appends: Sequence[Append], at: datetime) -> list[bool]:
    driver = connection.connection
    driver.execute("BEGIN IMMEDIATE")
    try:
        stored = _update_then_insert(appends, at)
    except BaseException:
        driver.execute("ROLLBACK")
        raise
    driver.execute("COMMIT")
    return stored


def _update_then_insert(appends: Sequence[Append], at: datetime) -> list[bool]:
    cursor = connection.connection.cursor()
    try:
        cursor.execute(_update_sql(connection.vendor, len(appends)), _update_params(appends))
        moved = {game_id for (game_id,) in cursor.fetchall()}
        rows = _action_rows(appends, moved, at)
        if rows:
            cursor.execute(_insert_sql(connection.vendor, len(rows)), _flat(rows))
    finally:
        cursor.close()
    return [append.game_id in moved for append in appends]


def _one_statement(appends: Sequence[Append], at: datetime) -> list[bool]:
    rows = _action_rows(appends, {append.game_id for append in appends}, at)
    sql = _postgresql_sql(len(appends), len(rows))
    with connection.connection.cursor() as cursor:
        cursor.execute(sql, [*_update_params(appends), *_flat(rows)])
        moved = {game_id for (game_id,) in cursor.fetchall()}
    return [append.game_id in moved for append in appends]


def _update_params(appends: Sequence[Append]) -> list:
    params = [
        value
        for a in appends
        for value in (a.game_id, a.expected, a.expected + len(a.actions), a.seq)
    ]
    return [*params, str(Game.Status.OPEN)]


def _action_rows(appends: Sequence[Append], moved: set[int], at: datetime) -> list[tuple]:
    when = connection.ops.adapt_datetimefield_value(at)
    return [
        (append.game_id, append.expected + i, action, when)
        for append in appends
        if append.game_id in moved
        for i, action in enumerate(append.actions)
    ]


def _flat(rows: list[tuple]) -> list:
    return [value for row in rows for value in row]


def appends_statements_kept() -> int:
    """How many built statements are kept now (bench.probe shows it; at most 3 * STATEMENTS)."""
    return sum(build.cache_info().currsize for build in STATEMENT_BUILDERS)


@lru_cache(maxsize=STATEMENTS)
def _update_sql(vendor: str, count: int) -> str:
    game, p = _names()["game"], _placeholder(vendor)
    row = f"(CAST({p} AS BIGINT), CAST({p} AS BIGINT), CAST({p} AS BIGINT), CAST({p} AS BIGINT))"
    return (
        f"UPDATE {game} SET action_count = v.column3, last_seq = COALESCE(v.column4, last_seq)"
        f" FROM (VALUES {', '.join([row] * count)}) AS v"
        f" WHERE {game}.id = v.column1 AND {game}.action_count = v.column2"
        f" AND {game}.status = {p} RETURNING {game}.id"
    )


@lru_cache(maxsize=STATEMENTS)
def _insert_sql(vendor: str, count: int) -> str:
    names, p = _names(), _placeholder(vendor)
    values = ", ".join([f"({p}, {p}, {p}, {p})"] * count)
    return f"INSERT INTO {names['action']} ({names['columns']}) VALUES {values}"


@lru_cache(maxsize=STATEMENTS)
def _postgresql_sql(count: int, actions: int) -> str:
    """The UPDATE, and an INSERT of only the rows of games it moved, as one statement."""
    if not actions:
        return _update_sql("postgresql", count)
    names = _names()
    row = "(CAST(%s AS BIGINT), CAST(%s AS INTEGER), %s, CAST(%s AS TIMESTAMPTZ))"
    return (
        f"WITH moved AS ({_update_sql('postgresql', count)}),"
        f" a (game_id, i, action, at) AS (VALUES {', '.join([row] * actions)}),"
        f" inserted AS (INSERT INTO {names['action']} ({names['columns']})"
        f" SELECT a.game_id, a.i, a.action, a.at FROM a JOIN moved ON moved.id = a.game_id)"
        f" SELECT id FROM moved"
    )


STATEMENT_BUILDERS = (_update_sql, _insert_sql, _postgresql_sql)


def _placeholder(vendor: str) -> str:
    return "?" if vendor == "sqlite" else "%s"


@cache
def _names() -> dict[str, str]:
    quote = connection.ops.quote_name
    columns = ("game_id", "index", "action", "at")
    return {
        "game": quote(Game._meta.db_table),
        "action": quote(Action._meta.db_table),
        "columns": ", ".join(quote(name) for name in columns),
    }
