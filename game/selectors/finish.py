"""What the end of a ranked daily shows beside its own result: where it stands among the day's
ranked results (its percentile and the day's distribution), the player's streaks, when the
next deal comes and the deal's difficulty (docs/protocol.md, "The end of a ranked daily").

The percentile of a result: a won one is compared with the day's other winners, a lost one
with the day's other players, won or not. It is the share of those that the leaderboard's
order (game.selectors.ranking) puts after it, in whole percent rounded down, so 100 means ahead of
every one; None while there is nobody to compare with.
"""

from django.db.models import Count, Q, QuerySet

from game.engine import CARD_SCORE
from game.models import Game, Result
from game.selectors.daily import daily_day_end, daily_today
from game.selectors.ranking import ranked_behind
from game.selectors.ratings import daily_difficulty
from game.selectors.standing import day_standing
from game.selectors.streaks import streaks_of

# Where the winners' time bars end, in minutes; the last bar is "15 minutes or more".
BAR_EDGES_MS = tuple(minutes * 60_000 for minutes in (2, 3, 4, 5, 7, 10, 15))


def daily_finish(*, result: Result) -> dict:
    """The end-of-game window's data for a ranked daily result (see the module's docstring)."""
    today = daily_today()
    streak = streaks_of([result.player_id], today)[result.player_id]  # no read of the user
    return {
        "cleared": result.score // CARD_SCORE,
        **daily_percentile(result=result),
        "distribution": daily_distribution(result=result),
        "streak": {"current": streak.current, "best": streak.best},
        "next_deal_at": daily_day_end(today).isoformat(),
        # The window shows the result of an ended game: its player may know the deal's rating.
        "difficulty": daily_difficulty(daily_id=result.daily_id, own_game_ended=True),
    }


def daily_ranked_ended(*, player) -> Game | None:
    """The player's ranked game of today's deal once it has ended, else None: back on /daily/
    the player sees its result (docs/protocol.md, "Back on the daily"), not a new game."""
    games = Game.objects.filter(player=player, ranked=True, daily__date=daily_today())
    return games.exclude(status=Game.Status.OPEN).select_related("daily").first()


def _day_results(result: Result) -> QuerySet[Result]:
    """The day's ranked results that stand: no comparison counts a voided one."""
    return day_standing(daily_id=result.daily_id)


def daily_percentile(*, result: Result) -> dict:
    """{"percentile", "compared"}: the result's percentile and how many it was compared with."""
    peers = _day_results(result).exclude(pk=result.pk)
    if result.won:
        peers = peers.filter(won=True)
    counts = peers.aggregate(compared=Count("pk"), behind=Count("pk", filter=ranked_behind(result)))
    compared, behind = counts["compared"], counts["behind"]
    percentile = 100 * behind // compared if compared else None
    return {"percentile": percentile, "compared": compared}


def _bar_spans() -> list[tuple[int, int | None]]:
    starts = (0, *BAR_EDGES_MS)
    return list(zip(starts, (*BAR_EDGES_MS, None), strict=True))


def _in_span(start: int, end: int | None) -> Q:
    span = Q(won=True, duration_ms__gte=start)
    return span & Q(duration_ms__lt=end) if end is not None else span


def daily_distribution(*, result: Result) -> dict:
    """{"bars", "you"}: the day's ranked results as bars, the winners by time and then one bar
    of those who did not clear the heart; `you` is the index of the bar holding `result`."""
    spans = _bar_spans()
    counts = _day_results(result).aggregate(
        lost=Count("pk", filter=Q(won=False)),
        **{f"bar{i}": Count("pk", filter=_in_span(*span)) for i, span in enumerate(spans)},
    )
    bars = [
        {"won": True, "from_ms": start, "to_ms": end, "count": counts[f"bar{i}"]}
        for i, (start, end) in enumerate(spans)
    ]
    bars.append({"won": False, "from_ms": None, "to_ms": None, "count": counts["lost"]})
    return {"bars": bars, "you": _bar_of(result, spans)}


def _bar_of(result: Result, spans: list[tuple[int, int | None]]) -> int:
    if not result.won:
        return len(spans)
    return next(
        i for i, (start, end) in enumerate(spans) if end is None or result.duration_ms < end
    )
