"""Results: written by the server from its own replay, ranked by the one shared order."""

from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import Count, Q, QuerySet
from django.utils import timezone

from game import engine, fairplay
from game.metrics import RESULT_FLAGS, RESULTS
from game.models import Game, Result, ResultFlag
from game.ranking import ranked_ahead_of
from game.selectors.finish import daily_finish
from game.selectors.guests import is_guest
from game.selectors.pages import board_results
from game.selectors.par import par_of
from game.selectors.standing import day_standing
from game.services.boards import board_result_recorded
from game.services.pars import par_after_end
from game.services.rooms import race_result_recorded


def result_create(*, game: Game, state: engine.State, status: str, at: datetime) -> Result:
    """Complete the game at `at` and record what the replay says; nothing comes from a client."""
    game.status = status
    game.finished_at = at
    game.save(update_fields=["status", "finished_at"])
    result = Result.objects.create(
        game=game,
        player_id=game.player_id,
        code=game.code,
        daily_id=game.daily_id,
        ranked=game.ranked,
        won=state.won,
        score=state.score,
        moves=state.moves,
        undos=state.undos,
        placement_help=state.help_used,
        duration_ms=duration_ms(game.started_at, at),
        finished_at=at,
    )
    transaction.on_commit(RESULTS.labels(status).inc)
    result_flag(result=result)  # one read of the log just written: cheap enough to stay here
    # Inside the result's transaction: versions bump now, the boards and a race hear of it
    # once this commits.
    board_result_recorded(result=result)
    race_result_recorded(result=result)
    par_after_end(code=game.code, game_id=game.pk)
    return result


def result_flag(*, result: Result) -> list[fairplay.Flag]:
    """Store a flag for each reason its game's log gives to review the result, keeping any
    stored before. Every result is on a leaderboard (its code's), so every result's timing is
    read; the stock's scouting matters on a ranked one only (a code may be played again).
    Flags are for a person to review: the result and its boards stay as they are."""
    game = result.game
    log = game.actions.order_by("index").values_list("action", "at")
    found = fairplay.flags_for(started_at=game.started_at, log=log, ranked=result.ranked)
    now = timezone.now()
    rows = [
        ResultFlag(result=result, reason=flag.reason, detail=flag.detail, created_at=now)
        for flag in found
    ]
    ResultFlag.objects.bulk_create(rows, ignore_conflicts=True)
    for flag in found:
        transaction.on_commit(RESULT_FLAGS.labels(flag.reason).inc)
    return found


def duration_ms(started_at: datetime, finished_at: datetime) -> int:
    """A game's time on the server clock: from the deal's first showing to the final move."""
    return max(0, (finished_at - started_at) // timedelta(milliseconds=1))


def result_board(*, result: Result) -> tuple[str, QuerySet[Result]]:
    """The leaderboard a result belongs to, as its standing results: its day's for a ranked
    daily, else its code's."""
    if result.ranked:
        return "daily", day_standing(daily_id=result.daily_id)
    return "deal", board_results().filter(code=result.code)


def result_rank(*, result: Result) -> dict:
    """{"rank", "of", "board"}: the result's place on its leaderboard (1 is best) among the
    `of` results that stand; rank None for a voided result (or of a voided day), which has no
    place, and all None for a guest's, which is on no board. One read."""
    if is_guest(player_id=result.player_id):
        return {"rank": None, "of": None, "board": None}
    board, results = result_board(result=result)
    counts = results.aggregate(
        of=Count("pk"),
        ahead=Count("pk", filter=ranked_ahead_of(result)),
        stands=Count("pk", filter=Q(pk=result.pk)),
    )
    rank = counts["ahead"] + 1 if counts["stands"] else None
    return {"rank": rank, "of": counts["of"], "board": board}


def result_summary(*, game: Game, standing: bool = True) -> dict | None:
    """What the end-of-game window shows, or None while the game is open. Without `standing`,
    a ranked daily's place in its day is left out (None): its several queries are for a
    client's window, not for a process that only needs to know the game has ended."""
    result = Result.objects.filter(game=game).first()
    return None if result is None else result_described(result=result, standing=standing)


def result_described(*, result: Result, standing: bool = True) -> dict:
    """result_summary of a result at hand (the one a game's end just created)."""
    return {
        "won": result.won,
        "score": result.score,
        "moves": result.moves,
        "undos": result.undos,
        "placement_help": result.placement_help,
        "clean": result.clean,
        "duration_ms": result.duration_ms,
        "finished_at": result.finished_at.isoformat(),
        **result_rank(result=result),
        # Only a finished game's result exists, so par reaches nobody still playing the deal.
        "par": par_of(result.code),
        # Only the ranked attempt is compared with the day; sent only once the game has ended.
        "daily": daily_finish(result=result) if result.ranked and standing else None,
    }
