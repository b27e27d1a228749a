"""Live leaderboards, written: a result joins its boards, their versions bump, and the update
is published after commit.

A result joins its code's board; a ranked daily result also joins its day's board and the
all-time board. Each board has a version, bumped inside the result's own transaction, and the
update published after commit carries it. A client applies updates in version order; one that
sees a jump (it missed an update) or reconnects takes a fresh snapshot instead
(game.selectors.boards), so it never shows a wrong board. The all-time board is aggregates,
not rows: its update is only the new version, and its listeners send a fresh snapshot.
"""

from django.db.models import F

from game.models import BoardVersion, Profile, Result
from game.selectors.abandoned import LATE_RESULT_MS
from game.selectors.boards import ALL_TIME, boards_of, result_row
from game.selectors.guests import is_guest
from game.selectors.ratings import daily_ratings_of
from game.services.groups import board_group
from game.services.publish import publish_on_commit


def board_result_recorded(*, result: Result) -> None:
    """Bump the result's boards' versions now; publish the result to them after commit. A
    guest's result is on no board; one of a voided day is on none either, so its boards are
    only sent again whole (it may end after its day was voided)."""
    if is_guest(player_id=result.player_id):
        return
    name = Profile.objects.filter(user_id=result.player_id).values_list("display_name", flat=True)
    rating = daily_ratings_of([result.player_id]).get(result.player_id)
    row = result_row(result, name=name.first(), rating=rating)
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
    a deal board none that took a day or more (leaderboards.board_results: an abandoned game)."""
    if board == ALL_TIME:
        return False
    return not board.startswith("deal:") or result.duration_ms < LATE_RESULT_MS


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
