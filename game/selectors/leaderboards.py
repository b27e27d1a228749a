"""The leaderboards as the pages show them: the results any board may show, a day's and a deal's
boards, and the all-time board of daily records. Nothing here writes."""

from collections.abc import Collection
from dataclasses import dataclass

from django.db.models import Count, F, Min, Q, QuerySet

from game.models import DailyDeal, Result
from game.selectors.abandoned import LATE_RESULT_MS
from game.selectors.daily import daily_today
from game.selectors.ranking import RANK_ORDER
from game.selectors.standing import day_standing, standing_results
from game.selectors.streaks import Streak, streaks_of

BOARD_SIZE = 100


Players = Collection[int] | None  # whose results a board shows: None for everyone's


def board_results() -> QuerySet[Result]:
    """The results any board may show: accounts' (a guest is on no board) that stand, and
    took less than a day (a game abandoned and finished later stays in its player's history)."""
    return standing_results().filter(player__guest__isnull=True, duration_ms__lt=LATE_RESULT_MS)


def _of(results: QuerySet[Result], players: Players) -> QuerySet[Result]:
    return results if players is None else results.filter(player_id__in=players)


def _board(results: QuerySet[Result], players: Players) -> list[Result]:
    results = _of(results, players).select_related("player__profile")
    return list(results.order_by(*RANK_ORDER)[:BOARD_SIZE])


def daily_board(deal: DailyDeal, players: Players = None) -> list[Result]:
    """The day's ranked attempts, best first; practice games are not on it."""
    return _board(day_standing(daily_id=deal.pk), players)


def deal_board(code: str, players: Players = None) -> list[Result]:
    """Everyone's completed games of one canonical code, best first."""
    return _board(board_results().filter(code=code), players)


@dataclass(frozen=True)
class DailyRecord:
    """One player's record on ranked daily deals."""

    player_id: int
    display_name: str | None
    wins: int
    played: int
    best_ms: int | None
    current_streak: int
    best_streak: int

    @property
    def win_percent(self) -> int:
        return round(100 * self.wins / self.played) if self.played else 0


def all_time_records(players: Players = None) -> list[DailyRecord]:
    """The all-time board: most daily wins first, then fewer attempts, then best time."""
    return _records(_of(standing_results(), players))


def player_record(user) -> DailyRecord | None:
    """One player's daily record, or None if they have never finished a ranked daily."""
    records = _records(standing_results().filter(player=user))
    return records[0] if records else None


RECORD_ORDER = ("-wins", "played", F("best_ms").asc(nulls_last=True), "display_name")


def _records(results: QuerySet[Result]) -> list[DailyRecord]:
    totals = (
        results.filter(ranked=True, daily__isnull=False)
        .values("player_id", display_name=F("player__profile__display_name"))
        .annotate(
            wins=Count("pk", filter=Q(won=True)),
            played=Count("pk"),
            best_ms=Min("duration_ms", filter=Q(won=True)),
        )
        .order_by(*RECORD_ORDER)[:BOARD_SIZE]
    )
    streaks = streaks_of([row["player_id"] for row in totals], daily_today())
    return [_record(row, streaks[row["player_id"]]) for row in totals]


def _record(row: dict, streak: Streak) -> DailyRecord:
    return DailyRecord(**row, current_streak=streak.current, best_streak=streak.best)
