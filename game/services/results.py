"""Results: written by the server from its own replay, and flagged for review when its log
looks unlike a person's play (game.selectors.results reads them)."""

from datetime import datetime

from django.utils import timezone

from game import engine
from game.engine import fairplay
from game.models import Game, Result, ResultFlag
from game.selectors.outages import game_time_ms
from game.services.boards import board_result_recorded
from game.services.rooms import race_result_recorded
from game.services.signals import result_flagged, result_recorded


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
        duration_ms=game_time_ms(started_at=game.started_at, finished_at=at),
        finished_at=at,
    )
    result_flag(result=result)  # one read of the log just written: cheap enough to stay here
    # Inside the result's transaction: versions bump now, the boards and a race hear of it
    # once this commits, and so does what a process keeps (its par search, its metrics).
    board_result_recorded(result=result)
    race_result_recorded(result=result)
    result_recorded.send(sender=None, result=result, status=status)
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
        result_flagged.send(sender=None, reason=flag.reason)
    return found
