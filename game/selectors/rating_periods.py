"""What a rating period reads before game.services.ratings writes it: a day's field and a
race's, in their boards' own order, the players' stored ratings, a deal's difficulty, and the
ended days still to rate."""

import datetime
from dataclasses import dataclass

from django.db.models import QuerySet

from game.domain.glicko2 import Glicko
from game.domain.virtual_games import places
from game.models import (
    DailyDeal,
    DealRating,
    Game,
    RaceEntry,
    RaceRoom,
    Rating,
    RatingChange,
    Result,
)
from game.selectors.races import RACE_ORDER
from game.selectors.ranking import RANK_ORDER
from game.selectors.standing import day_standing


@dataclass(frozen=True)
class Entrant:
    """A player in a rating period's field: their place (1 is best; equal results share one)
    and whether their game cleared the heart."""

    player_id: int
    place: int
    won: bool


def day_results(*, daily_id: int) -> QuerySet[Result]:
    """The results a day's rating counts: its board's (ranked, standing: neither voided nor of
    a voided day), accounts' only, since a guest has no rating."""
    return day_standing(daily_id=daily_id).filter(player__guest__isnull=True)


def day_field(*, daily_id: int) -> list[Entrant]:
    """The day's field, placed as its board places them (RANK_ORDER: score, time, moves, then
    the earlier finish), in one read."""
    return _field(day_results(daily_id=daily_id), RANK_ORDER)


def race_field(*, room: RaceRoom) -> list[Entrant]:
    """A finished race's field, placed as its table places them (RACE_ORDER: score, time,
    moves): the racers who had a game, accounts' only."""
    games = RaceEntry.objects.filter(room=room, player__guest__isnull=True).values("game_id")
    return _field(Result.objects.filter(game_id__in=games), RACE_ORDER)


def race_rated(*, room: RaceRoom) -> bool:
    """Whether the race's period is written already."""
    return RatingChange.objects.filter(room=room).exists()


def _field(results: QuerySet[Result], order: tuple[str, ...]) -> list[Entrant]:
    fields = [key.removeprefix("-") for key in order]
    rows = list(results.values_list("player_id", "won", *fields))
    keys = [_sort_key(row[2:], order) for row in rows]
    return [Entrant(row[0], place, row[1]) for row, place in zip(rows, places(keys), strict=True)]


def _sort_key(values: tuple, order: tuple[str, ...]) -> tuple:
    """Smaller is better: the descending keys (numbers) are negated."""
    return tuple(
        -value if key.startswith("-") else value for value, key in zip(values, order, strict=True)
    )


@dataclass(frozen=True)
class StoredRating:
    """A player's stored rating and the end of its latest period (RD grows from there)."""

    glicko: Glicko
    rated_at: datetime.datetime


def ratings_of(*, kind: str, player_ids, locked: bool = False) -> dict[int, StoredRating]:
    """The stored ratings of `kind` of these players (ids, or a query of them) by player; a
    player never rated has none. `locked` holds their rows until the caller's transaction
    ends, in the players' order, so that two periods of one player are written one after the
    other. Read as plain rows: a day reads 100,000 of them."""
    rows = Rating.objects.filter(kind=kind, player_id__in=player_ids)
    if locked:
        rows = rows.select_for_update().order_by("player_id")
    fields = ("player_id", "rating", "deviation", "volatility", "rated_at")
    return {
        player: StoredRating(Glicko(rating, deviation, volatility), rated_at)
        for player, rating, deviation, volatility, rated_at in rows.values_list(*fields)
    }


def deal_rating_of(*, daily_id: int) -> DealRating | None:
    return DealRating.objects.filter(daily_id=daily_id).first()


def days_to_rate(*, today: datetime.date) -> list[DailyDeal]:
    """The ended days not rated yet, oldest first, leaving out a day whose ranked games are not
    all over (the scheduled expire_dailies ends them within minutes of midnight)."""
    open_ranked = Game.objects.filter(ranked=True, status=Game.Status.OPEN, daily__isnull=False)
    unfinished = open_ranked.values("daily_id")
    days = DailyDeal.objects.filter(date__lt=today, rated_at__isnull=True)
    return list(days.exclude(pk__in=unfinished).order_by("date"))
