"""Players' and deals' ratings, read."""

import datetime
from collections.abc import Collection
from dataclasses import dataclass

from django.utils import timezone

from game.domain.glicko2 import PROVISIONAL_DEVIATION, Glicko, grown, is_provisional
from game.models import DealRating, Game, Rating, RatingChange, RatingKind
from game.selectors.daily import daily_today

# Ratings as the pages show them: a player's page, the boards, the Ratings board, the export,
# and a daily deal's difficulty, shown once its player may know it.

HISTORY_SHOWN = 100  # the latest rating periods a player's page charts, of each kind
RATINGS_BOARD_SIZE = 100
ACTIVE_DAYS = 30  # the Ratings board lists who played a rated daily within this many days


@dataclass(frozen=True)
class ShownRating:
    """A rating as a page shows it: rounded, and marked "?" while its deviation, grown by the
    days since its last period, says too little is known yet."""

    value: int
    provisional: bool

    def __str__(self) -> str:
        return f"{self.value}?" if self.provisional else str(self.value)

    def as_json(self) -> dict:
        return {"value": self.value, "provisional": self.provisional}


def shown_rating(rating: Rating, now: datetime.datetime | None = None) -> ShownRating:
    """The rating as of `now` (default now): its deviation grows by each idle day."""
    idle_days = max(((now or timezone.now()) - rating.rated_at).days, 0)
    current = grown(Glicko(rating.rating, rating.deviation, rating.volatility), idle_days)
    return ShownRating(round(current.rating), is_provisional(current.deviation))


def player_ratings(*, user) -> dict[str, ShownRating]:
    """The player's ratings by kind ("daily", "race"); a kind never rated is absent."""
    now = timezone.now()
    return {rating.kind: shown_rating(rating, now) for rating in Rating.objects.filter(player=user)}


def daily_ratings_of(player_ids: Collection[int]) -> dict[int, ShownRating]:
    """The Daily ratings of the players of `player_ids` that have one, in one query."""
    if not player_ids:
        return {}
    now = timezone.now()
    ratings = Rating.objects.filter(kind=RatingKind.DAILY, player_id__in=set(player_ids))
    return {rating.player_id: shown_rating(rating, now) for rating in ratings}


def rating_history(*, user, kind: str, latest: int = HISTORY_SHOWN) -> list[RatingChange]:
    """The player's latest `latest` rating periods of `kind`, oldest first."""
    changes = RatingChange.objects.filter(player=user, kind=kind).order_by("-at", "-pk")
    return list(reversed(changes[:latest]))


@dataclass(frozen=True)
class RatedPlayer:
    player_id: int
    display_name: str | None
    rating: ShownRating
    games: int  # days rated


def ratings_board() -> list[RatedPlayer]:
    """The Ratings board: players rated on a daily deal within ACTIVE_DAYS, by Daily rating,
    the provisional ones left out. A stored deviation under the mark may have grown past it
    since, so the rows are checked as they are read, best first, until the board is full."""
    since = timezone.now() - datetime.timedelta(days=ACTIVE_DAYS)
    ratings = (
        Rating.objects.filter(kind=RatingKind.DAILY, rated_at__gte=since)
        .filter(player__guest__isnull=True, deviation__lt=PROVISIONAL_DEVIATION)
        .select_related("player__profile")
        .order_by("-rating", "player_id")
    )
    board: list[RatedPlayer] = []
    now = timezone.now()
    for rating in ratings.iterator(chunk_size=RATINGS_BOARD_SIZE):
        shown = shown_rating(rating, now)
        if not shown.provisional:
            board.append(_rated_player(rating, shown))
        if len(board) == RATINGS_BOARD_SIZE:
            break
    return board


def _rated_player(rating: Rating, shown: ShownRating) -> RatedPlayer:
    profile = getattr(rating.player, "profile", None)
    name = profile.display_name if profile else None
    return RatedPlayer(rating.player_id, name, shown, rating.games)


def difficulty_visible(*, day: datetime.date, own_game_ended: bool) -> bool:
    """Whether a viewer may see the difficulty of the daily deal of `day`: once their own ranked
    game of it has ended, and to anyone once the day is over (it is derived from par)."""
    return own_game_ended or day < daily_today()


def daily_difficulty(*, daily_id: int, own_game_ended: bool) -> int | None:
    """The daily deal's difficulty, rounded, if it is rated and the viewer may see it."""
    rated = DealRating.objects.filter(daily_id=daily_id)
    row = rated.values_list("rating", "daily__date").first()
    if row is None or not difficulty_visible(day=row[1], own_game_ended=own_game_ended):
        return None
    return round(row[0])


def month_difficulties(*, viewer, first: datetime.date, last: datetime.date) -> dict:
    """The difficulties of the daily deals from `first` to `last` that `viewer` (an account or
    None) may see, by date: one query for the deals, one for the viewer's ended ranked games."""
    rated = DealRating.objects.filter(daily__date__range=(first, last))
    by_day = dict(rated.values_list("daily__date", "rating"))
    ended = _ended_ranked_days(viewer, [day for day in by_day if day >= daily_today()])
    return {
        day: round(rating)
        for day, rating in by_day.items()
        if difficulty_visible(day=day, own_game_ended=day in ended)
    }


def _ended_ranked_days(viewer, days: list[datetime.date]) -> set[datetime.date]:
    if not days or viewer is None or not viewer.is_authenticated:
        return set()
    games = Game.objects.filter(player=viewer, ranked=True, daily__date__in=days)
    ended = games.exclude(status=Game.Status.OPEN)
    return set(ended.values_list("daily__date", flat=True))
