"""Writing a rating period's rows in bulk: a day of 100,000 players writes as many current
ratings and as many changes, which the ORM's bulk_create builds as model objects and, on
SQLite, 111 rows a statement (about 25 s of a 100,000 day); one executemany of plain rows takes
a fraction of that (docs/performance.md, "Rating a day"). Both statements are the same on
SQLite and PostgreSQL (ON CONFLICT ... excluded)."""

import datetime
from collections.abc import Sequence
from dataclasses import dataclass

from django.db import connection

from game.models import Rating, RatingChange


@dataclass(frozen=True)
class RatingRow:
    """One player's rating after a period: the current rating and its change."""

    player_id: int
    rating: float
    deviation: float
    volatility: float
    delta: float  # rating after minus rating before


def rating_rows_write(
    rows: Sequence[RatingRow],
    *,
    kind: str,
    at: datetime.datetime,
    date: datetime.date | None = None,
    room_id: int | None = None,
) -> None:
    """Each row's current Rating (created, or updated with one more rated period) and its
    RatingChange of the period (a day's `date` or a race's `room_id`), in the caller's
    transaction."""
    stamp = connection.ops.adapt_datetimefield_value(at)
    day = connection.ops.adapt_datefield_value(date)
    with connection.cursor() as cursor:
        cursor.executemany(
            _upsert_sql(),
            [(r.player_id, kind, r.rating, r.deviation, r.volatility, stamp) for r in rows],
        )
        cursor.executemany(
            _change_sql(),
            [
                (r.player_id, kind, stamp, r.rating, r.deviation, r.delta, day, room_id)
                for r in rows
            ],
        )


def _upsert_sql() -> str:
    table = connection.ops.quote_name(Rating._meta.db_table)
    return (
        f"INSERT INTO {table} (player_id, kind, rating, deviation, volatility, games, rated_at)"
        " VALUES (%s, %s, %s, %s, %s, 1, %s)"
        " ON CONFLICT (player_id, kind) DO UPDATE SET rating = excluded.rating,"
        " deviation = excluded.deviation, volatility = excluded.volatility,"
        f" games = {table}.games + 1, rated_at = excluded.rated_at"
    )


def _change_sql() -> str:
    table = connection.ops.quote_name(RatingChange._meta.db_table)
    return (
        f"INSERT INTO {table} (player_id, kind, at, rating, deviation, delta, date, room_id)"
        " VALUES (%s, %s, %s, %s, %s, %s, %s, %s)"
    )
