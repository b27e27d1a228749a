"""Ratings as the pages read them: the "?" of a provisional rating, a board's players' ratings,
a player's history, the Ratings board, and who may see a daily deal's difficulty, and when."""

import datetime

import pytest
import time_machine
from django.contrib.auth.models import AnonymousUser
from django.utils import timezone

from game.models import DealRating, Game, Rating, RatingChange, RatingKind
from game.selectors import ratings
from game.selectors.finish import daily_finish
from tests.selectors.history import (  # noqa: F401  (the fixture)
    TODAY,
    deal_on,
    december_the_tenth,
    finish,
)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("december_the_tenth")]


def days_ago(n: float) -> datetime.datetime:
    return timezone.now() - datetime.timedelta(days=n)


def rate(player, rating=1500.0, deviation=60.0, *, kind=RatingKind.DAILY, idle_days=0.0):
    return Rating.objects.create(
        player=player,
        kind=kind,
        rating=rating,
        deviation=deviation,
        volatility=0.06,
        games=12,
        rated_at=days_ago(idle_days),
    )


def rate_deal(deal, rating=1623.4) -> DealRating:
    return DealRating.objects.create(
        daily=deal, seed=1600, rating=rating, deviation=80, volatility=0.06
    )


def test_a_settled_rating_shows_as_a_whole_number():
    shown = ratings.ShownRating(1623, provisional=False)
    assert str(shown) == "1623"
    assert shown.as_json() == {"value": 1623, "provisional": False}


def test_a_provisional_rating_shows_with_a_question_mark(player):
    shown = ratings.shown_rating(rate(player, 1623.4, deviation=180))
    assert (str(shown), shown.provisional) == ("1623?", True)


def test_a_settled_rating_left_idle_long_enough_becomes_provisional_again(player):
    assert not ratings.shown_rating(rate(player, deviation=100)).provisional
    with time_machine.travel(days_ago(-60)):
        assert ratings.shown_rating(Rating.objects.get(player=player)).provisional


def test_a_players_ratings_are_read_by_kind_and_a_kind_never_rated_is_absent(player):
    rate(player, 1700)
    assert {kind: str(shown) for kind, shown in ratings.player_ratings(user=player).items()} == {
        "daily": "1700"
    }


def test_a_boards_daily_ratings_are_one_read_whatever_its_players(
    make_player, django_assert_num_queries
):
    players = [make_player(f"p{n}") for n in range(5)]
    for n, player in enumerate(players[:3]):
        rate(player, 1500 + n)
    rate(players[3], 1800, kind=RatingKind.RACE)  # a Race rating is not the boards'
    with django_assert_num_queries(1):
        shown = ratings.daily_ratings_of([p.pk for p in players])
    assert {pk: str(rating) for pk, rating in shown.items()} == {
        players[0].pk: "1500",
        players[1].pk: "1501",
        players[2].pk: "1502",
    }


def test_nobody_to_rate_reads_nothing(django_assert_num_queries):
    with django_assert_num_queries(0):
        assert ratings.daily_ratings_of([]) == {}


def test_a_history_is_the_latest_periods_of_one_kind_oldest_first(player):
    for n in range(5):
        RatingChange.objects.create(
            player=player, kind=RatingKind.DAILY, at=days_ago(5 - n), rating=1500 + n,
            deviation=90, delta=1, date=TODAY - datetime.timedelta(days=5 - n),
        )  # fmt: skip
    RatingChange.objects.create(
        player=player, kind=RatingKind.RACE, at=days_ago(1), rating=1400, deviation=90, delta=-9
    )
    history = ratings.rating_history(user=player, kind=RatingKind.DAILY, latest=3)
    assert [change.rating for change in history] == [1502, 1503, 1504]


def board_names() -> list[str]:
    return [rated.display_name for rated in ratings.ratings_board()]


def test_the_ratings_board_ranks_settled_active_players_by_daily_rating(make_player):
    rate(make_player("low"), 1450)
    rate(make_player("high"), 1720, idle_days=29)
    rate(make_player("middle"), 1600, idle_days=3)
    assert board_names() == ["High", "Middle", "Low"]


def test_the_ratings_board_leaves_out_provisional_inactive_and_race_only_players(make_player):
    rate(make_player("settled"), 1500)
    rate(make_player("newcomer"), 1900, deviation=200)
    rate(make_player("away"), 1800, idle_days=31)
    rate(make_player("racer"), 1700, kind=RatingKind.RACE)
    # Stored under the mark, but twenty idle days have grown it past: provisional again.
    rate(make_player("drifting"), 1750, deviation=105, idle_days=20)
    assert board_names() == ["Settled"]


@pytest.mark.parametrize(
    ("own_game_ended", "day", "visible"),
    [
        (False, TODAY, False),  # today's deal, own game not ended (or none)
        (True, TODAY, True),  # today's deal, own ranked game ended
        (False, TODAY - datetime.timedelta(days=1), True),  # a day that is over: anyone
    ],
)
def test_a_deals_difficulty_shows_after_the_own_game_or_after_the_day(own_game_ended, day, visible):
    assert ratings.difficulty_visible(day=day, own_game_ended=own_game_ended) is visible


def test_todays_difficulty_shows_to_everyone_once_the_day_ends():
    deal = deal_on(TODAY)
    rate_deal(deal)
    assert ratings.daily_difficulty(daily_id=deal.pk, own_game_ended=False) is None
    next_morning = datetime.datetime.combine(TODAY, datetime.time(), datetime.UTC)
    with time_machine.travel(next_morning + datetime.timedelta(days=1, minutes=1)):
        assert ratings.daily_difficulty(daily_id=deal.pk, own_game_ended=False) == 1623


def test_an_unrated_deal_has_no_difficulty_to_show():
    deal = deal_on(TODAY - datetime.timedelta(days=2))
    assert ratings.daily_difficulty(daily_id=deal.pk, own_game_ended=True) is None


def test_the_end_window_of_a_ranked_daily_carries_its_deals_difficulty(player):
    deal = deal_on(TODAY)
    rate_deal(deal, 1287.6)
    assert daily_finish(result=finish(player, deal))["difficulty"] == 1288


def month(viewer) -> dict:
    first = TODAY.replace(day=1)
    return ratings.month_difficulties(viewer=viewer, first=first, last=TODAY)


def test_the_calendar_shows_todays_difficulty_once_the_viewers_ranked_game_has_ended(player):
    yesterday, today = deal_on(TODAY - datetime.timedelta(days=1)), deal_on(TODAY)
    rate_deal(yesterday, 1400)
    rate_deal(today, 1650)
    assert month(player) == {yesterday.date: 1400}
    game = Game.objects.create(
        player=player, code=today.code, daily=today, ranked=True, status=Game.Status.OPEN
    )
    assert month(player) == {yesterday.date: 1400}  # playing it still
    Game.objects.filter(pk=game.pk).update(status=Game.Status.RESIGNED)
    assert month(player) == {yesterday.date: 1400, today.date: 1650}


def test_a_practice_game_of_today_does_not_show_its_difficulty(player):
    today = deal_on(TODAY)
    rate_deal(today)
    finish(player, today, ranked=False)
    assert month(player) == {}


def test_a_visitor_sees_only_the_difficulties_of_days_that_are_over():
    rate_deal(deal_on(TODAY))
    rate_deal(deal_on(TODAY - datetime.timedelta(days=3)), 1512)
    assert month(AnonymousUser()) == {TODAY - datetime.timedelta(days=3): 1512}
