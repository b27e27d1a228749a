"""Rating periods, written (docs/ratings.md): a day's, once it has ended (ratings_rate_day, run
by the rate_days command), a finished race's, in the transaction that finishes it
(ratings_rate_race), and each daily deal's difficulty (deal_rating_seed, then corrected by its
day). Imports no other use case: the race rooms' bookkeeping, imported by result_create, calls
it."""

import datetime

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from game.domain.deal_difficulty import deal_line, deal_rated, deal_seed
from game.domain.glicko2 import START, Glicko, grown
from game.domain.virtual_games import field_rated, pairwise_rated
from game.models import DailyDeal, DealRating, RaceRoom, RatingKind
from game.selectors.daily import daily_day_end, daily_today
from game.selectors.rating_periods import (
    Entrant,
    StoredRating,
    day_field,
    day_results,
    deal_rating_of,
    race_field,
    race_rated,
    ratings_of,
)
from game.storage.rating_rows import RatingRow, rating_rows_write

DAY = datetime.timedelta(days=1)


def ratings_rate_day(*, date: datetime.date) -> bool:
    """Rate the day's field once, after the day has ended: its players' Daily ratings and its
    deal's difficulty. True if this call rated it; False for a day not over, without a deal,
    or rated already (DailyDeal.rated_at), which makes a second run harmless."""
    if date >= daily_today():
        return False
    with transaction.atomic():
        deal = DailyDeal.objects.select_for_update().filter(date=date).first()
        if deal is None or deal.rated_at is not None:
            return False
        _rate_day(deal)
        deal.rated_at = timezone.now()
        deal.save(update_fields=["rated_at"])
    return True


def _rate_day(deal: DailyDeal) -> None:
    """Every player's rating before the day is their stored one with RD grown by the whole days
    they sat out since it (START for a newcomer); the players and the deal are rated from those."""
    field = day_field(daily_id=deal.pk)
    stored = ratings_of(
        kind=RatingKind.DAILY, player_ids=day_results(daily_id=deal.pk).values("player_id")
    )
    day_start = daily_day_end(deal.date - DAY)
    before = [_before(stored.get(entrant.player_id), day_start, _whole_days) for entrant in field]
    after = field_rated(
        [(rating, entrant.place) for rating, entrant in zip(before, field, strict=True)]
    )
    at = daily_day_end(deal.date)
    if len(field) > 1:
        _written(RatingKind.DAILY, field, stored, after, at=at, date=deal.date)
    _deal_rated(deal, field, before, at=at)


def ratings_rate_race(*, room: RaceRoom) -> None:
    """Rate a race that has just finished, in the transaction that finished it: a period for its
    racers (accounts only), every pair a whole game decided by the table's places. Races are
    rated in the order they finish; a race rated already is left alone."""
    if race_rated(room=room):
        return
    field = race_field(room=room)
    if len(field) < 2:
        return
    ids = [entrant.player_id for entrant in field]
    stored = ratings_of(kind=RatingKind.RACE, player_ids=ids, locked=True)
    before = [_before(stored.get(player), room.finished_at, _days_since) for player in ids]
    after = pairwise_rated(
        [(rating, entrant.place) for rating, entrant in zip(before, field, strict=True)]
    )
    _written(RatingKind.RACE, field, stored, after, at=room.finished_at, room_id=room.pk)


def deal_rating_seed(*, deal: DailyDeal) -> DealRating:
    """The deal's difficulty as the solver suggests it (its shortest line's par and passes
    through the stock), created once: when its day is first dealt, or else when it is rated."""
    if (row := deal_rating_of(daily_id=deal.pk)) is not None:
        return row
    seed = deal_seed(deal_line(deal.code, key=settings.DEAL_KEY))
    row, _ = DealRating.objects.get_or_create(
        daily=deal,
        defaults={
            "seed": seed.rating,
            "rating": seed.rating,
            "deviation": seed.deviation,
            "volatility": seed.volatility,
        },
    )
    return row


def _deal_rated(deal: DailyDeal, field: list[Entrant], before: list[Glicko], *, at) -> None:
    """The deal's difficulty corrected by the day: the players' ratings before the day, and
    whether each one's result cleared the heart (placed above the deal)."""
    row = deal_rating_seed(deal=deal)
    if not field:
        return
    start = Glicko(row.rating, row.deviation, row.volatility)
    after = deal_rated(
        start, [(rating, entrant.won) for rating, entrant in zip(before, field, strict=True)]
    )
    row.rating, row.deviation, row.volatility = after.rating, after.deviation, after.volatility
    row.rated_at = at
    row.save(update_fields=["rating", "deviation", "volatility", "rated_at"])


def _before(stored: StoredRating | None, start: datetime.datetime, idle) -> Glicko:
    return START if stored is None else grown(stored.glicko, idle(stored.rated_at, start))


def _whole_days(since: datetime.datetime, until: datetime.datetime) -> int:
    """Days sat out between two day boundaries (a day of a clock change is 23 or 25 hours)."""
    return max(round((until - since) / DAY), 0)


def _days_since(since: datetime.datetime, until: datetime.datetime) -> int:
    """Whole days idle, as a player's page grows a shown rating (selectors.ratings)."""
    return max((until - since).days, 0)


def _written(kind: str, field, stored: dict, after: list[Glicko], *, at, **period) -> None:
    """Each entrant's new current rating and its change for the period (a day's `date` or a
    race's `room_id`)."""
    rows = [
        RatingRow(
            entrant.player_id,
            new.rating,
            new.deviation,
            new.volatility,
            new.rating - _before_rating(stored.get(entrant.player_id)),
        )
        for entrant, new in zip(field, after, strict=True)
    ]
    rating_rows_write(rows, kind=kind, at=at, **period)


def _before_rating(stored: StoredRating | None) -> float:
    return START.rating if stored is None else stored.glicko.rating
