"""Live leaderboards, read: the boards a result is on, a board's version, its rows as the pages'
row templates show them, and its snapshot.

A snapshot is computed once per process and version (the "snapshots" cache): a reconnect or a
`sync` costs one read of the version. game.services.boards bumps the versions and publishes
the updates.
"""

import datetime
from collections.abc import Collection

from django.core.cache import caches
from django.urls import reverse

from game.models import BoardVersion, Result
from game.selectors import leaderboards
from game.selectors.daily import daily_deal_on
from game.selectors.ranking import RANK_ORDER
from game.selectors.ratings import ShownRating, daily_ratings_of

ALL_TIME = "all-time"


def boards_of(result: Result) -> list[str]:
    """The live boards a result appears on."""
    boards = [f"deal:{result.code}"]
    if result.ranked and result.daily_id is not None:
        boards += [f"daily:{result.daily.date.isoformat()}", ALL_TIME]
    return boards


def boards_of_player(*, player_id: int) -> list[str]:
    """Every live board one of the player's results is on."""
    results = Result.objects.filter(player_id=player_id)
    codes = results.values_list("code", flat=True).distinct()
    ranked = results.filter(ranked=True, daily__isnull=False)
    days = ranked.values_list("daily__date", flat=True).distinct()
    boards = [f"deal:{code}" for code in codes] + [f"daily:{day.isoformat()}" for day in days]
    return boards + [ALL_TIME] if days else boards


def _rating_json(rating: ShownRating | None) -> dict | None:
    return rating.as_json() if rating else None


def result_row(result: Result, *, name: str | None, rating: ShownRating | None) -> dict:
    """One row of a daily or deal board, as the page's row template shows it; `rating` is the
    player's Daily rating (None: unrated)."""
    return {
        "id": result.pk,
        "player": name,
        "player_id": result.player_id,
        "rating": _rating_json(rating),
        "score": result.score,
        "duration_ms": result.duration_ms,
        "moves": result.moves,
        "undos": result.undos,
        "won": result.won,
        "clean": result.clean,
        "finished_at": result.finished_at.isoformat(),
        "player_url": reverse("player", args=[name]) if name else None,
        "play_url": reverse("play", args=[result.code]),
        "replay_url": reverse("replay", args=[result.game_id]),
    }


def record_row(record: leaderboards.DailyRecord, *, rating: ShownRating | None) -> dict:
    """One row of the all-time board."""
    name = record.display_name
    return {
        "player": name,
        "player_id": record.player_id,
        "rating": _rating_json(rating),
        "wins": record.wins,
        "played": record.played,
        "win_percent": record.win_percent,
        "best_ms": record.best_ms,
        "current_streak": record.current_streak,
        "best_streak": record.best_streak,
        "player_url": reverse("player", args=[name]) if name else None,
    }


def board_snapshot(*, board: str, at_least: int | None = None) -> dict:
    """{"board", "version", "order", "size", "rows"}: the board now, best first.

    The snapshot this process read last is reused while it is as recent as the board's
    version, or as `at_least` (then without reading the version: the all-time board's
    listeners all ask for the same new version at once).
    """
    cache, key = caches["snapshots"], f"board:{board}"
    cached = cache.get(key)
    if at_least is not None and cached is not None and cached["version"] >= at_least:
        return cached
    # The version first: every result it counts is committed, so the rows read next hold it
    # (and maybe newer ones, which the client recognises by id when their update comes).
    version = board_version(board=board)
    if cached is not None and cached["version"] >= version:
        return cached
    snapshot = {"board": board, "version": version, "size": leaderboards.BOARD_SIZE}
    snapshot |= _rows(board)
    cache.set(key, snapshot)
    return snapshot


def following_snapshot(*, board: str, players: Collection[int]) -> dict:
    """board_snapshot's frame for the results of `players` only: not cached, as each
    follower's board is their own."""
    snapshot = {
        "board": board,
        "version": board_version(board=board),
        "size": leaderboards.BOARD_SIZE,
    }
    return snapshot | _rows(board, players)


def board_version(*, board: str) -> int:
    """How many results the board has taken (0 before its first)."""
    version = BoardVersion.objects.filter(board=board).values_list("version", flat=True).first()
    return version or 0


def _rows(board: str, players: leaderboards.Players = None) -> dict:
    kind, _, key = board.partition(":")
    if kind == "daily":
        deal = daily_deal_on(datetime.date.fromisoformat(key))
        results = leaderboards.daily_board(deal, players) if deal else []
    elif kind == "deal":
        results = leaderboards.deal_board(key, players)
    else:
        records = leaderboards.all_time_records(players)
        ratings = daily_ratings_of([r.player_id for r in records])
        rows = [record_row(r, rating=ratings.get(r.player_id)) for r in records]
        return {"order": None, "rows": rows}
    ratings = daily_ratings_of([r.player_id for r in results])
    rows = [
        result_row(r, name=_display_name(r.player), rating=ratings.get(r.player_id))
        for r in results
    ]
    return {"order": list(RANK_ORDER), "rows": rows}


def _display_name(user) -> str | None:
    profile = getattr(user, "profile", None)  # an account without a profile has no public name
    return profile.display_name if profile else None
