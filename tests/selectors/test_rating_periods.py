"""What a rating period reads: a day's field as its board places it, a race's as its table
does, the stored ratings, and the ended days still to rate."""

import datetime

import pytest
import time_machine
from django.utils import timezone

from game.domain.glicko2 import Glicko
from game.models import Game, Guest, RaceEntry, RaceRoom, Rating
from game.selectors.rating_periods import (
    Entrant,
    day_field,
    days_to_rate,
    race_field,
    ratings_of,
)
from tests.selectors.history import TODAY, deal_on, december_the_tenth, finish  # noqa: F401

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("december_the_tenth")]


def test_a_days_field_is_placed_as_its_board_with_equal_results_sharing_a_place(
    player, rival, make_player
):
    deal = deal_on(TODAY)
    cid, dan = make_player("cid"), make_player("dan")
    with time_machine.travel(timezone.now(), tick=False):
        finish(player, deal, seconds=90)
        finish(rival, deal, seconds=40)
        finish(cid, deal, seconds=90)
    finish(dan, deal, won=False, seconds=10)
    field = {entrant.player_id: entrant for entrant in day_field(daily_id=deal.pk)}
    assert field == {
        rival.pk: Entrant(rival.pk, 1, True),
        player.pk: Entrant(player.pk, 2, True),
        cid.pk: Entrant(cid.pk, 2, True),
        dan.pk: Entrant(dan.pk, 4, False),
    }


def test_a_days_field_leaves_out_guests_voided_results_and_practice(player, make_player):
    deal = deal_on(TODAY)
    guest = make_player("guest-1")
    Guest.objects.create(user=guest, session_key="k" * 32, created_at=timezone.now())
    finish(guest, deal)
    finish(make_player("cheat"), deal, voided_at=timezone.now())
    finish(make_player("practice"), deal, ranked=False)
    finish(player, deal)
    assert [entrant.player_id for entrant in day_field(daily_id=deal.pk)] == [player.pk]


def test_a_races_field_is_its_racers_with_results_placed_by_its_table(player, rival, make_player):
    now = timezone.now()
    room = RaceRoom.objects.create(
        room="ABCDEF", code="HH1-N-AAAAAAM", created_at=now, touched_at=now
    )
    late = make_player("late")
    for racer, seconds in ((player, 80), (rival, 50)):
        result = finish(racer, seconds=seconds)
        RaceEntry.objects.create(room=room, player=racer, joined_at=now, game=result.game)
    RaceEntry.objects.create(room=room, player=late, joined_at=now)  # sat the race out
    field = sorted(race_field(room=room), key=lambda entrant: entrant.place)
    assert field == [Entrant(rival.pk, 1, True), Entrant(player.pk, 2, True)]


def test_stored_ratings_are_read_by_player_and_kind(player, rival):
    Rating.objects.create(
        player=player,
        kind="race",
        rating=1600,
        deviation=90,
        volatility=0.06,
        rated_at=timezone.now(),
    )
    assert ratings_of(kind="daily", player_ids=[player.pk, rival.pk]) == {}
    stored = ratings_of(kind="race", player_ids=[player.pk, rival.pk])
    assert list(stored) == [player.pk]
    assert stored[player.pk].glicko == Glicko(1600, 90, 0.06)


def test_the_days_to_rate_are_the_ended_unrated_ones_whose_ranked_games_are_over(player):
    days = [deal_on(TODAY - datetime.timedelta(days=n)) for n in range(4)]
    today, yesterday, unfinished, rated = days
    rated.rated_at = timezone.now()
    rated.save()
    Game.objects.create(player=player, code=unfinished.code, daily=unfinished, ranked=True)
    Game.objects.create(player=player, code="HH1-N-AAAAAAM")  # an open game of no day
    assert days_to_rate(today=TODAY) == [yesterday]
