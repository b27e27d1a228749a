"""Rating periods, written: a day's Daily ratings against brute force, once; a race's Race
ratings as it finishes; a daily deal's difficulty from par and from its day."""

import datetime
import io

import pytest
import time_machine
from django.core.management import call_command
from django.utils import timezone

from game import services
from game.domain.deal_difficulty import SEED_DEVIATION, deal_line, deal_seed
from game.domain.glicko2 import (
    START,
    START_VOLATILITY,
    Glicko,
    Outcome,
    grown,
    is_provisional,
    rated,
)
from game.models import DealRating, Game, Guest, RaceRoom, Rating, RatingChange
from game.selectors.daily import daily_day_end
from game.services import races
from game.services.daily import daily_deal
from game.services.ratings import ratings_rate_day
from tests.selectors.history import TODAY, deal_on, december_the_tenth, finish  # noqa: F401

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("december_the_tenth")]

YESTERDAY = TODAY - datetime.timedelta(days=1)


def daily_of(player) -> Rating:
    return Rating.objects.get(player=player, kind="daily")


def brute_force(field: list[tuple[Glicko, int]], weight: float) -> list[Glicko]:
    """Each pair of the field a game of the paper's system, decided by place."""
    return [
        rated(player, [_game(place, other, other_place, weight) for other, other_place in others])
        for index, (player, place) in enumerate(field)
        for others in [field[:index] + field[index + 1 :]]
    ]


def _game(place, other, other_place, weight) -> Outcome:
    score = 1.0 if place < other_place else 0.5 if place == other_place else 0.0
    return Outcome(other.rating, other.deviation, score, weight)


def settled_rating(player, *, rating=1700.0, deviation=80.0, last_day=YESTERDAY, kind="daily"):
    return Rating.objects.create(
        player=player,
        kind=kind,
        rating=rating,
        deviation=deviation,
        volatility=0.06,
        games=7,
        rated_at=daily_day_end(last_day),
    )


def test_a_day_is_rated_as_brute_force_rates_its_board(make_player):
    deal = deal_on(YESTERDAY)
    players = [make_player(f"p{n}") for n in range(12)]
    settled_rating(players[0], last_day=YESTERDAY - datetime.timedelta(days=4))  # 3 days idle
    with time_machine.travel(timezone.now(), tick=False):  # finished at one instant
        for n, player in enumerate(players):  # p0 and p1 tie on the board; p11 lost
            finish(player, deal, seconds=60 + max(n, 1) * 5, won=n < 11)
    assert ratings_rate_day(date=YESTERDAY)

    settled = grown(Glicko(1700, 80, 0.06), 3)
    field = [(settled, 1), (START, 1)] + [(START, place) for place in range(3, 13)]
    expected = brute_force(field, weight=1 / 11)
    for player, want in zip(players, expected, strict=True):
        got = daily_of(player)
        assert got.rating == pytest.approx(want.rating, abs=1e-6)
        assert got.deviation == pytest.approx(want.deviation, abs=1e-6)
        assert got.rated_at == daily_day_end(YESTERDAY)
    assert daily_of(players[0]).games == 8 and daily_of(players[1]).games == 1
    change = RatingChange.objects.get(player=players[0], kind="daily")
    assert change.date == YESTERDAY
    assert change.delta == pytest.approx(expected[0].rating - 1700)


def test_one_big_day_leaves_a_newcomer_provisional(make_player):
    deal = deal_on(YESTERDAY)
    newcomer = make_player("new")
    finish(newcomer, deal, seconds=10)
    for n in range(60):
        regular = make_player(f"r{n}")
        settled_rating(regular, rating=1500, deviation=60)
        finish(regular, deal, seconds=20 + n)
    ratings_rate_day(date=YESTERDAY)
    rating = daily_of(newcomer)
    assert rating.rating > 1500
    assert is_provisional(rating.deviation)


def test_a_day_is_rated_once(player, rival):
    deal = deal_on(YESTERDAY)
    finish(player, deal, seconds=30)
    finish(rival, deal, seconds=90)
    assert ratings_rate_day(date=YESTERDAY)
    first = daily_of(player).rating
    assert not ratings_rate_day(date=YESTERDAY)
    assert daily_of(player).rating == first
    assert RatingChange.objects.filter(player=player).count() == 1
    deal.refresh_from_db()
    assert deal.rated_at is not None


def test_today_is_not_rated_before_it_ends(player, rival):
    deal = deal_on(TODAY)
    finish(player, deal)
    finish(rival, deal)
    assert not ratings_rate_day(date=TODAY)
    assert not Rating.objects.exists()


def test_voided_results_guests_and_practice_games_do_not_count(player, rival, make_player):
    deal = deal_on(YESTERDAY)
    cheat, guest, practising = make_player("cheat"), make_player("guest-1"), make_player("pra")
    Guest.objects.create(user=guest, session_key="k" * 32, created_at=timezone.now())
    finish(cheat, deal, seconds=1, voided_at=timezone.now())
    finish(guest, deal, seconds=2)
    finish(practising, deal, seconds=3, ranked=False)
    finish(player, deal, seconds=30)
    finish(rival, deal, seconds=40)
    ratings_rate_day(date=YESTERDAY)
    assert set(Rating.objects.values_list("player__username", flat=True)) == {"ann", "bea"}
    expected = brute_force([(START, 1), (START, 2)], weight=1)
    assert daily_of(player).rating == pytest.approx(expected[0].rating)


def test_a_voided_day_rates_nobody(player, rival):
    deal = deal_on(YESTERDAY)
    finish(player, deal)
    finish(rival, deal, won=False)
    deal.voided_at = timezone.now()
    deal.save()
    assert ratings_rate_day(date=YESTERDAY)
    assert not Rating.objects.exists()


def test_a_lone_player_of_a_day_has_no_games_to_rate(player):
    finish(player, deal_on(YESTERDAY))
    ratings_rate_day(date=YESTERDAY)
    assert not Rating.objects.exists()


def test_the_command_rates_every_ended_day_once_its_ranked_games_are_over(player, rival):
    before_yesterday = YESTERDAY - datetime.timedelta(days=1)
    for day in (before_yesterday, YESTERDAY, TODAY):
        deal = deal_on(day)
        finish(player, deal, seconds=30)
        finish(rival, deal, seconds=60)
    left_open = Game.objects.create(
        player=rival,
        code="HH1-N-AAAAAAC",
        daily=deal_on(before_yesterday - datetime.timedelta(1)),
        ranked=True,
        started_at=timezone.now(),
    )
    output = io.StringIO()
    call_command("rate_days", stdout=output)
    assert output.getvalue() == f"{before_yesterday} rated\n{YESTERDAY} rated\n2 days rated\n"
    assert daily_of(player).games == 2
    left_open.daily.refresh_from_db()
    assert left_open.daily.rated_at is None
    call_command("rate_days", stdout=output)
    assert output.getvalue().endswith("0 days rated\n")


def test_a_deals_difficulty_is_seeded_from_its_solvers_line_when_the_day_is_first_dealt(
    settings,
):
    deal = daily_deal(TODAY)
    difficulty = DealRating.objects.get(daily=deal)
    seed = deal_seed(deal_line(deal.code, key=settings.DEAL_KEY))
    assert difficulty.seed == difficulty.rating == seed.rating
    assert difficulty.deviation == SEED_DEVIATION
    assert difficulty.rated_at is None


def test_a_deal_beaten_by_more_players_than_expected_grows_easier(make_player):
    easy, hard = deal_on(YESTERDAY), deal_on(YESTERDAY - datetime.timedelta(days=1))
    for n in range(10):
        racer = make_player(f"p{n}")
        finish(racer, easy, won=n < 9, seconds=30 + n)  # nine of ten cleared the heart
        finish(racer, hard, won=n < 1, seconds=30 + n)  # one of ten did
    ratings_rate_day(date=hard.date)
    ratings_rate_day(date=YESTERDAY)
    easy_rating, hard_rating = (DealRating.objects.get(daily=deal) for deal in (easy, hard))
    assert easy_rating.rating < easy_rating.seed
    assert hard_rating.rating > hard_rating.seed
    assert easy_rating.deviation < SEED_DEVIATION
    assert easy_rating.rated_at == daily_day_end(YESTERDAY)


def test_the_deal_is_rated_from_the_players_ratings_before_the_day(player, rival):
    deal = deal_on(YESTERDAY)
    settled_rating(player, rating=2000, deviation=50)
    finish(player, deal, seconds=30)
    finish(rival, deal, won=False)
    ratings_rate_day(date=YESTERDAY)
    difficulty = DealRating.objects.get(daily=deal)
    seed = Glicko(difficulty.seed, SEED_DEVIATION, START_VOLATILITY)
    games = [Outcome(2000, 50, 0), Outcome(START.rating, START.deviation, 1)]
    assert difficulty.rating == pytest.approx(rated(seed, games).rating)


def raced(player, rival, *, first_after: int, second_after: int) -> RaceRoom:
    """A race of two whose racers resign that many seconds after its start (the quicker one
    places first: equal scores, then time)."""
    room = races.race_create(player=player)
    races.race_join(player=rival, room=room.room)
    for racer in (player, rival):
        races.race_ready(player=racer, room=room.room, ready=True)
    start = timezone.now()
    RaceRoom.objects.filter(pk=room.pk).update(starts_at=start)
    assert races.race_begin_if_due(room=room.room)
    for racer, after in ((player, first_after), (rival, second_after)):
        game = Game.objects.get(race_entry__room=room, player=racer)
        with time_machine.travel(start + datetime.timedelta(seconds=after), tick=False):
            services.game_resign(game=services.LockedGame(game.pk), player=racer)
    return RaceRoom.objects.get(pk=room.pk)


def test_a_finished_race_rates_its_racers_at_once_as_whole_games(player, rival):
    settled_rating(rival, kind="race", rating=1600, deviation=100)
    room = raced(player, rival, first_after=10, second_after=20)
    assert room.status == "finished"
    changes = {c.player_id: c for c in RatingChange.objects.filter(room=room, kind="race")}
    rival_before = grown(Glicko(1600, 100, 0.06), 0)
    assert changes[player.pk].rating == pytest.approx(
        rated(START, [Outcome(rival_before.rating, rival_before.deviation, 1)]).rating
    )
    assert changes[player.pk].delta > 0 > changes[rival.pk].delta
    assert Rating.objects.get(player=rival, kind="race").games == 8
    assert not Rating.objects.filter(kind="daily").exists()


def test_an_abandoned_race_is_rated_when_it_ends(player, rival):
    room = races.race_create(player=player)
    races.race_join(player=rival, room=room.room)
    for racer in (player, rival):
        races.race_ready(player=racer, room=room.room, ready=True)
    RaceRoom.objects.filter(pk=room.pk).update(starts_at=timezone.now())
    races.race_begin_if_due(room=room.room)
    RaceRoom.objects.filter(pk=room.pk).update(touched_at=timezone.now() - races.IDLE * 2)
    races.race_expire_if_idle(room=room.room)
    assert RatingChange.objects.filter(room=room).count() == 2


def test_a_guest_racer_is_not_rated(player, rival, make_player):
    Guest.objects.create(user=rival, session_key="g" * 32, created_at=timezone.now())
    raced(player, rival, first_after=10, second_after=20)
    assert not RatingChange.objects.exists()
