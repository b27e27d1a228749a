"""Appending moves to many games' logs at once: the write every move makes, kept lean.

A move is stored only if its game is still open and its log still has the length the move
was made on: the length is the lock. A game that another tab, process or page moved
meanwhile matches no row, and its caller reloads the log and decides again.

`appends_store` is the hot path, a transaction of its own on the database driver's
connection, beside Django's transaction machinery (which costs more than SQLite's own work):
- SQLite: BEGIN IMMEDIATE, a conditional UPDATE per move, the actions' INSERT, COMMIT. In
  process, a statement per move costs less than one UPDATE ... FROM (VALUES ...) for every
  batch: a fifth of it for one move, the human pace's usual batch (docs/performance.md);
- PostgreSQL: one statement (a data-modifying WITH, its moves in a VALUES list) in
  autocommit: one round trip, however many moves.
Django's connection is in autocommit before and after, as Django expects.
`appends_write` makes the SQLite way's writes inside a caller's Django transaction (one final
move, whose result is written in the same transaction), on either database.

PostgreSQL's statement text depends on how many moves and rows it carries, so each is built
once and kept; at most STATEMENTS of each kind, the most recently used, since every pair of a
batch's sizes (up to 200 moves and 400 rows) would otherwise keep tens of thousands of
statements of up to tens of kilobytes each.
"""

from collections.abc import Sequence
from datetime import datetime
from functools import cache, lru_cache
from typing import NamedTuple

from django.db import DEFAULT_DB_ALIAS, connection, connections

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

    At most one append per game: a game's next move is decided only once its last one is
    committed (game.runtime.open_games holds the game's lock until then).

    `checkpoints=False` (SQLite): this connection leaves the WAL to `appends_checkpoint`.
    """
    db = _this_threads()
    assert not db.in_atomic_block, "appends_store runs its own transaction"
    db.ensure_connection()
    with db.wrap_database_errors:
        if db.vendor == "postgresql":
            return _one_statement(db, appends, at)
        if not checkpoints and getattr(db, "_h2h_no_checkpoints", None) is not db.connection:
            db.connection.execute("PRAGMA wal_autocheckpoint = 0")
            db._h2h_no_checkpoints = db.connection
        return _sqlite_transaction(db, appends, at)


def appends_checkpoint() -> None:
    """SQLite: copy the WAL's committed pages into the database without waiting for anyone."""
    connection.ensure_connection()
    with connection.wrap_database_errors:
        connection.connection.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()


def appends_write(*, appends: Sequence[Append], at: datetime) -> list[bool]:
    """appends_store's writes inside the caller's transaction (Django's atomic)."""
    db = _this_threads()
    assert db.in_atomic_block, "appends_write runs in the caller's transaction"
    db.ensure_connection()
    with db.wrap_database_errors:
        return _update_then_insert(db, appends, at)


def _this_threads():
    """This thread's connection itself: each attribute read through django.db.connection
    looks the connection up again, a tenth of a one-move commit's time."""
    return connections[DEFAULT_DB_ALIAS]


def _sqlite_transaction(db, appends: Sequence[Append], at: datetime) -> list[bool]:
    driver = db.connection
    driver.execute("BEGIN IMMEDIATE")
    try:
        stored = _update_then_insert(db, appends, at)
    except BaseException:
        driver.execute("ROLLBACK")
        raise
    driver.execute("COMMIT")
    return stored


def _update_then_insert(db, appends: Sequence[Append], at: datetime) -> list[bool]:
    cursor = db.connection.cursor()
    try:
        stored = _updated_one_by_one(db, cursor, appends)
        rows = _action_rows(db, [a for a, ok in zip(appends, stored, strict=True) if ok], at)
        if rows:
            cursor.executemany(_insert_sql(db.vendor), rows)
    finally:
        cursor.close()
    return stored


def _updated_one_by_one(db, cursor, appends: Sequence[Append]) -> list[bool]:
    """Whether each append's conditional UPDATE matched its game: still open, at that length."""
    sql, still_open, stored = _update_one_sql(db.vendor), str(Game.Status.OPEN), []
    for a in appends:
        grown = a.expected + len(a.actions)
        cursor.execute(sql, (grown, a.seq, a.game_id, a.expected, still_open))
        stored.append(cursor.rowcount == 1)
    return stored


def _one_statement(db, appends: Sequence[Append], at: datetime) -> list[bool]:
    rows = _action_rows(db, appends, at)  # the statement inserts only the moved games' rows
    sql = _postgresql_sql(len(appends), len(rows))
    with db.connection.cursor() as cursor:
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


def _action_rows(db, appends: Sequence[Append], at: datetime) -> list[tuple]:
    when = db.ops.adapt_datetimefield_value(at)
    return [
        (append.game_id, append.expected + i, action, when)
        for append in appends
        for i, action in enumerate(append.actions)
    ]


def _flat(rows: list[tuple]) -> list:
    return [value for row in rows for value in row]


def appends_statements_kept() -> int:
    """How many built statements are kept now (bench.probe shows it; at most 2 * STATEMENTS)."""
    return sum(build.cache_info().currsize for build in STATEMENT_BUILDERS)


@cache
def _update_one_sql(vendor: str) -> str:
    game, p = _names()["game"], _placeholder(vendor)
    return (
        f"UPDATE {game} SET action_count = {p}, last_seq = COALESCE(CAST({p} AS BIGINT), last_seq)"
        f" WHERE id = {p} AND action_count = {p} AND status = {p}"
    )


@cache
def _insert_sql(vendor: str) -> str:
    names, p = _names(), _placeholder(vendor)
    return f"INSERT INTO {names['action']} ({names['columns']}) VALUES ({p}, {p}, {p}, {p})"


@lru_cache(maxsize=STATEMENTS)
def _update_sql(count: int) -> str:
    """PostgreSQL: every move's conditional UPDATE in one, from a VALUES list."""
    game = _names()["game"]
    row = "(CAST(%s AS BIGINT), CAST(%s AS BIGINT), CAST(%s AS BIGINT), CAST(%s AS BIGINT))"
    return (
        f"UPDATE {game} SET action_count = v.column3, last_seq = COALESCE(v.column4, last_seq)"
        f" FROM (VALUES {', '.join([row] * count)}) AS v"
        f" WHERE {game}.id = v.column1 AND {game}.action_count = v.column2"
        f" AND {game}.status = %s RETURNING {game}.id"
    )


@lru_cache(maxsize=STATEMENTS)
def _postgresql_sql(count: int, actions: int) -> str:
    """The UPDATE, and an INSERT of only the rows of games it moved, as one statement."""
    if not actions:
        return _update_sql(count)
    names = _names()
    row = "(CAST(%s AS BIGINT), CAST(%s AS INTEGER), %s, CAST(%s AS TIMESTAMPTZ))"
    return (
        f"WITH moved AS ({_update_sql(count)}),"
        f" a (game_id, i, action, at) AS (VALUES {', '.join([row] * actions)}),"
        f" inserted AS (INSERT INTO {names['action']} ({names['columns']})"
        f" SELECT a.game_id, a.i, a.action, a.at FROM a JOIN moved ON moved.id = a.game_id)"
        f" SELECT id FROM moved"
    )


STATEMENT_BUILDERS = (_update_sql, _postgresql_sql)


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
