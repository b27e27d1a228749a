"""The quick race's reads: a player's Race rating."""

import pytest
from django.utils import timezone

from game.models import Rating, RatingKind
from game.selectors.quick import START_RATING, race_rating

pytestmark = pytest.mark.django_db


def test_a_player_never_rated_races_as_a_newcomer(player, rival):
    Rating.objects.create(
        player=rival,
        kind=RatingKind.RACE,
        rating=1720,
        deviation=70,
        volatility=0.06,
        rated_at=timezone.now(),
    )
    Rating.objects.create(
        player=player,
        kind=RatingKind.DAILY,
        rating=1900,
        deviation=70,
        volatility=0.06,
        rated_at=timezone.now(),
    )
    assert (race_rating(player=player), race_rating(player=rival)) == (START_RATING, 1720)
