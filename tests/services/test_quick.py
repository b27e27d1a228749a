"""The quick race's queue through its services: who is matched with whom as the window
widens, leases that run out, rooms that start themselves, and one match however many rounds
run at once."""

import datetime
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
import time_machine
from django.db import connection
from django.utils import timezone

from game import engine
from game.domain.errors import GameError
from game.models import QuickEntry, RaceRoom, Rating, RatingKind
from game.selectors.races import COUNTDOWN, QUICK_COUNTDOWN
from game.services import quick, races
from game.services.races import race_begin_if_due, room_open

pytestmark = pytest.mark.django_db

START = datetime.datetime(2026, 3, 2, 12, 0, tzinfo=datetime.UTC)


@pytest.fixture
def clock():
    with time_machine.travel(START, tick=False) as traveller:
        yield traveller


def rated(player, rating: float):
    Rating.objects.create(
        player=player,
        kind=RatingKind.RACE,
        rating=rating,
        deviation=80,
        volatility=0.06,
        games=5,
        rated_at=timezone.now(),
    )
    return player


def queued(*players) -> None:
    for player in players:
        assert quick.quick_enqueue(player=player, channel=f"ch.{player.username}") is None


def channels(*players) -> list[str]:
    return [f"ch.{player.username}" for player in players]


def room_of(player) -> RaceRoom | None:
    return QuickEntry.objects.get(player=player).room


def seconds(n: float) -> datetime.timedelta:
    return datetime.timedelta(seconds=n)


def test_two_players_whose_ratings_are_close_are_matched_in_a_quick_room(make_player, clock):
    ann, bea = rated(make_player("ann"), 1500), rated(make_player("bea"), 1780)
    queued(ann, bea)
    round_ = quick.quick_round(channels=channels(ann, bea))
    room = room_of(ann)
    assert room is not None and room == room_of(bea) and room.quick and room.fresh
    assert round_.waiting == 0 and [r["room"] for r in round_.rooms] == [room.room]


def test_the_deal_of_a_quick_room_is_one_the_solver_wins(make_player, clock, settings):
    ann, bea = make_player("ann"), make_player("bea")
    queued(ann, bea)
    quick.quick_round(channels=channels(ann, bea))
    assert engine.solve(room_of(ann).code, key=settings.DEAL_KEY)


def test_players_too_far_apart_wait_until_their_windows_have_widened(make_player, clock):
    ann, bea = rated(make_player("ann"), 1500), rated(make_player("bea"), 1950)
    queued(ann, bea)
    assert quick.quick_round(channels=channels(ann, bea)).waiting == 2  # 450 apart: over 300
    clock.shift(seconds(4.9))
    assert quick.quick_round(channels=channels(ann, bea)).waiting == 2
    clock.shift(seconds(0.1))  # 5 s: both windows are 450
    assert quick.quick_round(channels=channels(ann, bea)).waiting == 0
    assert room_of(ann) == room_of(bea)


def test_a_newcomer_rated_unlike_the_others_is_not_matched_with_them(make_player, clock):
    ann, bea = rated(make_player("ann"), 1200), make_player("bea")  # bea: never rated, 1500
    cat = rated(make_player("cat"), 1900)
    queued(ann, bea, cat)
    quick.quick_round(channels=channels(ann, bea, cat))
    assert room_of(ann) == room_of(bea) and room_of(cat) is None


def test_an_entry_whose_lease_is_not_renewed_expires_and_is_never_matched(make_player, clock):
    ann, bea = make_player("ann"), make_player("bea")
    queued(ann)
    quick.quick_round(channels=channels(ann))  # ann's process renews her lease
    clock.shift(quick.LEASE + seconds(0.1))  # ... and is killed: nobody renews it
    queued(bea)
    round_ = quick.quick_round(channels=channels(bea))
    assert round_.waiting == 1 and room_of(bea) is None
    assert not QuickEntry.objects.filter(player=ann).exists()


def test_a_lease_renewed_by_its_process_every_round_holds(make_player, clock):
    ann = make_player("ann")
    queued(ann)
    for _ in range(5):
        clock.shift(quick.LEASE - seconds(1))
        assert quick.quick_round(channels=channels(ann)).waiting == 1


def test_closing_the_socket_before_a_match_leaves_the_queue(make_player, clock):
    ann, bea = make_player("ann"), make_player("bea")
    queued(ann)
    quick.quick_leave(player=ann, channel="ch.ann")
    queued(bea)
    assert quick.quick_round(channels=channels(bea)).waiting == 1


def test_an_older_tab_closing_leaves_the_newer_tab_queued(make_player, clock):
    ann = make_player("ann")
    quick.quick_enqueue(player=ann, channel="ch.old")
    quick.quick_enqueue(player=ann, channel="ch.new")
    quick.quick_leave(player=ann, channel="ch.old")
    assert QuickEntry.objects.get(player=ann).channel == "ch.new"


def test_a_matched_player_belongs_to_their_room_until_it_is_over(make_player, clock):
    ann, bea = make_player("ann"), make_player("bea")
    queued(ann, bea)
    quick.quick_round(channels=channels(ann, bea))
    room = room_of(ann)
    quick.quick_leave(player=ann, channel="ch.ann")  # the page goes to the room
    assert quick.quick_enqueue(player=ann, channel="ch.again") == room.room
    RaceRoom.objects.filter(pk=room.pk).update(status=RaceRoom.Status.FINISHED)
    assert quick.quick_enqueue(player=ann, channel="ch.again") is None  # queued anew


def test_a_quick_room_counts_down_ten_seconds_from_its_second_racer(make_player, clock):
    ann, bea = make_player("ann"), make_player("bea")
    room = room_open(code="HH1-N-AAAAAAC", fresh=False, creator=ann, quick=True)
    room = quick.race_enter_quick(player=ann, room=room)
    assert (room.status, room.starts_at) == (RaceRoom.Status.LOBBY, None)  # alone: waits
    room = quick.race_enter_quick(player=bea, room=room)
    assert room.status == RaceRoom.Status.RUNNING
    assert room.starts_at == START + QUICK_COUNTDOWN


def test_a_racer_matched_during_the_countdown_joins_the_same_room(make_player, clock):
    ann, bea, cat = (make_player(name) for name in ("ann", "bea", "cat"))
    queued(ann, bea)
    quick.quick_round(channels=channels(ann, bea))
    clock.shift(seconds(3))
    queued(cat)
    quick.quick_round(channels=channels(cat))
    room = room_of(cat)
    assert room == room_of(ann) and room.entries.count() == 3
    assert room.starts_at == START + QUICK_COUNTDOWN  # the countdown goes on


def test_nobody_joins_a_room_in_the_last_seconds_of_its_countdown(make_player, clock):
    ann, bea, cat, dan = (make_player(name) for name in ("ann", "bea", "cat", "dan"))
    queued(ann, bea)
    quick.quick_round(channels=channels(ann, bea))
    clock.shift(QUICK_COUNTDOWN - quick.JOIN_MARGIN)
    queued(cat, dan)
    quick.quick_round(channels=channels(cat, dan))
    assert room_of(cat) == room_of(dan) != room_of(ann)


def test_the_eighth_racer_in_starts_the_race_at_once(make_player, clock):
    players = [make_player(f"racer{n}") for n in range(8)]
    queued(*players)
    quick.quick_round(channels=channels(*players))
    room = room_of(players[0])
    assert room.entries.count() == 8 and room.starts_at == START + COUNTDOWN
    clock.shift(COUNTDOWN)
    assert race_begin_if_due(room=room.room)


def test_a_quick_room_begins_at_its_instant_with_a_game_for_each_racer(make_player, clock):
    ann, bea = make_player("ann"), make_player("bea")
    queued(ann, bea)
    quick.quick_round(channels=channels(ann, bea))
    room = room_of(ann)
    assert not race_begin_if_due(room=room.room)
    clock.shift(QUICK_COUNTDOWN)
    assert race_begin_if_due(room=room.room)
    assert all(entry.game for entry in room.entries.all())


def test_a_quick_room_that_began_takes_nobody_more(make_player, clock):
    ann, bea, cat = (make_player(name) for name in ("ann", "bea", "cat"))
    queued(ann, bea)
    quick.quick_round(channels=channels(ann, bea))
    clock.shift(QUICK_COUNTDOWN)
    with pytest.raises(GameError) as caught:
        quick.race_enter_quick(player=cat, room=room_of(ann))
    assert caught.value.code == "race_started"


def test_the_quick_clock_runs_faster_by_its_setting(make_player, clock, settings):
    settings.QUICK_RACE_SPEED = 5
    ann, bea = rated(make_player("ann"), 1500), rated(make_player("bea"), 1950)
    queued(ann, bea)
    clock.shift(seconds(1))  # five seconds of the quick race's clock: windows of 450
    quick.quick_round(channels=channels(ann, bea))
    assert room_of(ann).starts_at == START + seconds(1) + QUICK_COUNTDOWN / 5


def test_a_group_another_round_claimed_first_is_left_alone(make_player, clock, monkeypatch):
    ann, bea = make_player("ann"), make_player("bea")
    queued(ann, bea)
    matches, other_round = quick.quick_matches, []

    def another_round_claims_them_meanwhile(waiters, openings):
        found = matches(waiters, openings)
        QuickEntry.objects.update(room=room_open(code="HH1-N-AAAAAAC", fresh=False, creator=ann))
        other_round.append(True)
        return found

    monkeypatch.setattr(quick, "quick_matches", another_round_claims_them_meanwhile)
    assert quick.quick_match(now=timezone.now()) == []
    assert other_round and not RaceRoom.objects.filter(quick=True).exists()


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_rounds_on_many_processes_at_once_match_each_player_once(make_player):
    players = [make_player(f"racer{n}") for n in range(16)]
    queued(*players)
    rounds, all_ready = 6, threading.Barrier(6)

    def one_round():
        try:
            all_ready.wait(timeout=10)
            return quick.quick_match(now=timezone.now())
        finally:
            connection.close()

    with ThreadPoolExecutor(rounds) as pool:
        list(pool.map(lambda _: one_round(), range(rounds)))
    rooms = RaceRoom.objects.filter(quick=True)
    racers = [entry.player_id for room in rooms for entry in room.entries.all()]
    assert sorted(racers) == sorted(player.pk for player in players)  # each exactly once
    assert all(2 <= room.entries.count() <= 8 for room in rooms)


def test_nobody_joins_a_quick_room_or_gets_ready_in_it(make_player, clock):
    ann, bea = make_player("ann"), make_player("bea")
    room = room_open(code="HH1-N-AAAAAAC", fresh=False, creator=ann, quick=True)
    quick.race_enter_quick(player=ann, room=room)
    for action, arguments in ((races.race_join, {}), (races.race_ready, {"ready": True})):
        with pytest.raises(GameError) as caught:
            action(player=bea if action is races.race_join else ann, room=room.room, **arguments)
        assert caught.value.code == "quick_room"


def test_a_socket_whose_entry_expired_while_the_database_was_away_is_queued_again(
    make_player, clock
):
    ann = make_player("ann")
    queued(ann)
    QuickEntry.objects.all().delete()  # expired: another process's round dropped it
    quick.quick_requeue(player=ann, channel="ch.ann")
    assert QuickEntry.objects.get(player=ann).channel == "ch.ann"


def test_an_older_tab_never_takes_the_place_a_newer_tab_holds(make_player, clock):
    ann = make_player("ann")
    quick.quick_enqueue(player=ann, channel="ch.new")
    quick.quick_requeue(player=ann, channel="ch.old")
    assert QuickEntry.objects.get(player=ann).channel == "ch.new"
