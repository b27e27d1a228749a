"""A result as the end-of-game window shows it: its place on its leaderboard (the one shared
order, game.selectors.ranking), its deal's par once known, and a ranked daily's day."""

from django.db.models import Count, Q, QuerySet

from game.models import Game, Result
from game.selectors.finish import daily_finish
from game.selectors.guests import is_guest
from game.selectors.leaderboards import board_results
from game.selectors.par import par_of
from game.selectors.ranking import ranked_ahead_of
from game.selectors.standing import day_standing


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
