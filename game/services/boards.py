"""Live leaderboards: the boards a result joins, their versions, their rows and snapshots.

A result joins its code's board; a ranked daily result also joins its day's board and the
all-time board. Each board has a version, bumped inside the result's own transaction, and the
update published after commit carries it. A client applies updates in version order; one that
sees a jump (it missed an update) or reconnects takes a fresh snapshot instead, so it never
shows a wrong board. The all-time board is aggregates, not rows: its update is only the new
version, and its listeners send a fresh snapshot. A snapshot is computed once per process
and version (the "snapshots" cache): a reconnect or a `sync` costs one read of the version.
"""

import datetime
from collections.abc import Collection

from django.core.cache import caches
from django.db.models import F
from django.urls import reverse

from game.models import BoardVersion, Profile, Result
from game.ranking import RANK_ORDER
from game.selectors import pages
from game.selectors.abandoned import LATE_RESULT_MS
from game.selectors.guests import is_guest
from game.services.groups import board_group
from game.services.publish import publish_on_commit

ALL_TIME = "all-time"


def boards_of(result: Result) -> list[str]:
    """The live boards a result appears on."""
    boards = [f"deal:{result.code}"]
    if result.ranked and result.daily_id is not None:
        boards += [f"daily:{result.daily.date.isoformat()}", ALL_TIME]
    return boards


def board_result_recorded(*, result: Result) -> None:
    """Bump the result's boards' versions now; publish the result to them after commit. A
    guest's result is on no board; one of a voided day is on none either, so its boards are
    only sent again whole (it may end after its day was voided)."""
    if is_guest(player_id=result.player_id):
        return
    name = Profile.objects.filter(user_id=result.player_id).values_list("display_name", flat=True)
    row = result_row(result, name=name.first())
    stands = result.daily_id is None or result.daily.voided_at is None
    for board, version in board_versions_bump(boards=boards_of(result)).items():
        message = {
            "type": "board.update",
            "board": board,
            "version": version,
            "player": row["player"],
            "player_id": result.player_id,
        }
        message["row"] = row if stands and _row_listed(board, result) else None
        publish_on_commit(board_group(board), message)


def _row_listed(board: str, result: Result) -> bool:
    """Whether `board` lists the result's row: the all-time board lists none (it is sums),
    a deal board none that took a day or more (pages.board_results: an abandoned game)."""
    if board == ALL_TIME:
        return False
    return not board.startswith("deal:") or result.duration_ms < LATE_RESULT_MS


def boards_of_player(*, player_id: int) -> list[str]:
    """Every live board one of the player's results is on."""
    results = Result.objects.filter(player_id=player_id)
    codes = results.values_list("code", flat=True).distinct()
    ranked = results.filter(ranked=True, daily__isnull=False)
    days = ranked.values_list("daily__date", flat=True).distinct()
    boards = [f"deal:{code}" for code in codes] + [f"daily:{day.isoformat()}" for day in days]
    return boards + [ALL_TIME] if days else boards


def board_results_left(*, boards: list[str]) -> None:
    """Results left these boards or came back (their account was deleted, a review voided them
    or undid it): bump their versions now, and after commit have their listeners send the
    whole board again."""
    for board, version in board_versions_bump(boards=boards).items():
        message = {"type": "board.update", "board": board, "version": version}
        message |= {"player": None, "player_id": None, "row": None}
        publish_on_commit(board_group(board), message)


def board_results_adopted(*, boards: list[str], player_id: int) -> None:
    """A guest's results on these boards joined the account `player_id` at its sign-up: bump
    the boards' versions now, and after commit have their listeners send the whole board again,
    naming the account as the one whose results changed it."""
    name = Profile.objects.filter(user_id=player_id).values_list("display_name", flat=True)
    named = {"player": name.first(), "player_id": player_id, "row": None}
    for board, version in board_versions_bump(boards=boards).items():
        message = {"type": "board.update", "board": board, "version": version} | named
        publish_on_commit(board_group(board), message)


def board_versions_bump(*, boards: list[str]) -> dict[str, int]:
    """Add one to each board's version (created at 0 first); returns the new versions."""
    BoardVersion.objects.bulk_create([BoardVersion(board=b) for b in boards], ignore_conflicts=True)
    for board in sorted(boards):  # one lock order for every writer, so two never deadlock
        BoardVersion.objects.filter(board=board).update(version=F("version") + 1)
    return dict(BoardVersion.objects.filter(board__in=boards).values_list("board", "version"))


def result_row(result: Result, *, name: str | None) -> dict:
    """One row of a daily or deal board, as the page's row template shows it."""
    return {
        "id": result.pk,
        "player": name,
        "player_id": result.player_id,
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


def record_row(record: pages.DailyRecord) -> dict:
    """One row of the all-time board."""
    name = record.display_name
    return {
        "player": name,
        "player_id": record.player_id,
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
    snapshot = {"board": board, "version": version, "size": pages.BOARD_SIZE}
    snapshot |= _rows(board)
    cache.set(key, snapshot)
    return snapshot


def following_snapshot(*, board: str, players: Collection[int]) -> dict:
    """board_snapshot's frame for the results of `players` only: not cached, as each
    follower's board is their own."""
    snapshot = {"board": board, "version": board_version(board=board), "size": pages.BOARD_SIZE}
    return snapshot | _rows(board, players)


def board_version(*, board: str) -> int:
    """How many results the board has taken (0 before its first)."""
    version = BoardVersion.objects.filter(board=board).values_list("version", flat=True).first()
    return version or 0


def _rows(board: str, players: pages.Players = None) -> dict:
    kind, _, key = board.partition(":")
    if kind == "daily":
        deal = pages.daily_deal_on(datetime.date.fromisoformat(key))
        results = pages.daily_board(deal, players) if deal else []
    elif kind == "deal":
        results = pages.deal_board(key, players)
    else:
        records = pages.all_time_records(players)
        return {"order": None, "rows": [record_row(r) for r in records]}
    rows = [result_row(r, name=_display_name(r.player)) for r in results]
    return {"order": list(RANK_ORDER), "rows": rows}


def _display_name(user) -> str | None:
    profile = getattr(user, "profile", None)  # an account without a profile has no public name
    return profile.display_name if profile else None
