"""Race rooms' rules, through the services: who may join, when the countdown starts, the start
instant, and idle rooms ending."""

import datetime
import io
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.core.management import call_command
from django.db import connection
from django.utils import timezone

from game import services
from game.domain.errors import GameError
from game.models import DailyDeal, Game, RaceRoom, Result
from game.selectors import daily
from game.selectors.races import race_snapshot, race_winner, standings
from game.services import races, rooms
from game.services.daily import daily_deal

pytestmark = pytest.mark.django_db

CODE = "HH1-N-AAAAAAC"


def refused(error: str, action, **arguments) -> None:
    with pytest.raises(GameError) as caught:
        action(**arguments)
    assert caught.value.code == error and caught.value.message


@pytest.fixture
def players(make_player):
    return [make_player(f"racer{n}") for n in range(9)]


def ready_all(room, players) -> None:
    for player in players:
        races.race_ready(player=player, room=room.room, ready=True)


def test_a_room_has_a_short_code_and_its_creator_in_it(player):
    room = races.race_create(player=player, code="hh1-n-aaaaaac")
    assert room.code == CODE and not room.fresh and room.status == RaceRoom.Status.LOBBY
    assert len(room.room) == 6 and set(room.room) <= set(races.ROOM_ALPHABET)
    assert [e["name"] for e in race_snapshot(room=room)["entries"]] == ["Ann"]


def test_a_fresh_race_is_never_a_deal_without_a_first_move(player, deals_drawn):
    _dead, playable = deals_drawn
    room = races.race_create(player=player)
    assert room.fresh and room.code == playable


def test_eight_players_at_most(players):
    room = races.race_create(player=players[0])
    for player in players[1:8]:
        races.race_join(player=player, room=room.room)
    refused("room_full", races.race_join, player=players[8], room=room.room)


def test_the_countdown_starts_when_two_or_more_joined_players_are_all_ready(player, rival):
    room = races.race_create(player=player)
    races.race_ready(player=player, room=room.room, ready=True)
    assert RaceRoom.objects.get(pk=room.pk).status == "lobby"  # alone: no race
    races.race_join(player=rival, room=room.room)
    races.race_ready(player=rival, room=room.room, ready=True)
    started = RaceRoom.objects.get(pk=room.pk)
    assert started.status == "running"
    assert started.starts_at - timezone.now() <= races.COUNTDOWN
    refused("race_started", races.race_leave, player=rival, room=room.room)
    refused("race_started", races.race_ready, player=rival, room=room.room, ready=False)


def test_nobody_joins_after_the_start_but_racers_rejoin(player, rival, make_player):
    room = races.race_create(player=player)
    races.race_join(player=rival, room=room.room)
    ready_all(room, [player, rival])
    refused("race_started", races.race_join, player=make_player("late"), room=room.room)
    assert races.race_join(player=rival, room=room.room).pk == room.pk


def test_leaving_a_lobby_and_errors_of_players_not_in_it(player, rival):
    room = races.race_create(player=player)
    refused("not_in_room", races.race_ready, player=rival, room=room.room, ready=True)
    refused("bad_ready", races.race_ready, player=player, room=room.room, ready=1)
    races.race_join(player=rival, room=room.room)
    races.race_leave(player=rival, room=room.room)
    refused("not_in_room", races.race_leave, player=rival, room=room.room)


def test_todays_daily_deal_and_bad_codes_cannot_be_raced(player):
    today = daily_deal()
    refused("daily_today", races.race_create, player=player, code=today.code)
    refused("bad_code", races.race_create, player=player, code="HH9-N-AAAAAAA")
    refused("no_such_room", races.race_join, player=player, room="ZZZZZZ")


def test_a_player_with_an_unfinished_ranked_game_of_the_deal_cannot_race_it(player, rival):
    old = DailyDeal.objects.create(date=daily.daily_today() - datetime.timedelta(days=2), code=CODE)
    Game.objects.create(player=rival, code=CODE, daily=old, ranked=True, started_at=timezone.now())
    room = races.race_create(player=player, code=CODE)
    refused("ranked_open", races.race_join, player=rival, room=room.room)
    refused("ranked_open", races.race_create, player=rival, code=CODE)


def start_instant_come(player, rival, code="") -> RaceRoom:
    """A room of two ready racers whose start instant has come; nothing has begun it yet."""
    room = races.race_create(player=player, code=code)
    races.race_join(player=rival, room=room.room)
    ready_all(room, [player, rival])
    RaceRoom.objects.filter(pk=room.pk).update(starts_at=timezone.now())
    return RaceRoom.objects.get(pk=room.pk)


def started_race(player, rival, code=""):
    room = start_instant_come(player, rival, code)
    assert races.race_begin_if_due(room=room.room)
    return RaceRoom.objects.get(pk=room.pk)


def test_the_games_start_at_the_rooms_instant_unranked_and_end_an_unfinished_game_first(
    player, rival
):
    earlier = services.game_open(player=rival, code=CODE)
    room = started_race(player, rival, CODE)
    assert not races.race_begin_if_due(room=room.room)  # made once, whoever comes next
    games = Game.objects.filter(race_entry__room=room)
    assert {g.started_at for g in games} == {room.starts_at}
    assert not any(g.ranked for g in games) and all(g.status == "open" for g in games)
    assert Game.objects.get(pk=earlier.pk).status == "resigned"


def test_a_race_begins_at_its_instant_and_not_before(player, rival):
    room = races.race_create(player=player)
    assert not races.race_begin_if_due(room=room.room)  # a lobby
    races.race_join(player=rival, room=room.room)
    ready_all(room, [player, rival])
    assert not races.race_begin_if_due(room=room.room)  # counting down
    assert not Game.objects.filter(race_entry__room=room).exists()
    refused("no_such_room", races.race_begin_if_due, room="ZZZZZZ")


def test_of_two_callers_who_read_the_room_at_its_instant_the_first_to_update_it_begins_it(
    player, rival, monkeypatch
):
    room = start_instant_come(player, rival)
    due, other_caller, others_outcome = races._due, [races.race_begin_if_due], []

    def due_then_the_other_caller_comes(found):
        answer = due(found)  # this caller has read the room: due, at version v
        while other_caller:  # the other reads it at v too, and updates it first
            others_outcome.append(other_caller.pop()(room=found.room))
        return answer

    monkeypatch.setattr(races, "_due", due_then_the_other_caller_comes)
    assert races.race_begin_if_due(room=room.room) is False  # its update matched no row
    assert others_outcome == [True]
    assert Game.objects.filter(code=room.code).count() == 2  # one game each, made once
    assert RaceRoom.objects.get(pk=room.pk).version == room.version + 1


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_eight_callers_at_the_start_instant_at_once_begin_the_race_once(player, rival, monkeypatch):
    room, callers = start_instant_come(player, rival), 8
    due, all_read = races._due, threading.Barrier(callers)

    def due_once_every_caller_has_read(found):
        answer = due(found)
        all_read.wait(timeout=10)  # every caller has read the room before any updates it
        return answer

    def begin() -> bool:
        try:
            return races.race_begin_if_due(room=room.room)
        finally:
            connection.close()

    monkeypatch.setattr(races, "_due", due_once_every_caller_has_read)
    with ThreadPoolExecutor(callers) as pool:
        begun = list(pool.map(lambda _: begin(), range(callers)))
    assert begun.count(True) == 1
    assert Game.objects.filter(code=room.code).count() == 2


def test_racing_a_past_daily_deal_is_practice(player, rival):
    past = DailyDeal.objects.create(
        date=daily.daily_today() - datetime.timedelta(days=3), code=CODE
    )
    room = started_race(player, rival, CODE)
    game = Game.objects.get(race_entry__room=room, player=player)
    assert game.daily == past and not game.ranked
    services.game_resign(game=services.LockedGame(game.pk), player=player)
    assert not Result.objects.filter(ranked=True).exists()


def test_the_last_result_finishes_the_race(player, rival):
    room = started_race(player, rival)
    for racer in (player, rival):
        game = Game.objects.get(race_entry__room=room, player=racer)
        services.game_resign(game=services.LockedGame(game.pk), player=racer)
    finished = RaceRoom.objects.get(pk=room.pk)
    assert finished.status == "finished" and finished.finished_at
    assert [e["place"] for e in race_snapshot(room=finished)["entries"]] == [1, 2]
    refused("race_over", races.race_ready, player=player, room=room.room, ready=True)


def test_the_room_names_the_first_to_clear_the_heart_as_its_winner():
    playing = {"player": 1, "status": "playing", "score": 240, "duration_ms": None, "moves": 40}
    slow = {"player": 2, "status": "won", "score": 250, "duration_ms": 90_000, "moves": 50}
    fast = {"player": 3, "status": "won", "score": 250, "duration_ms": 60_000, "moves": 70}
    ordered = standings([playing, slow, fast])
    assert [(e["player"], e["place"]) for e in ordered] == [(3, 1), (2, 2), (1, 3)]
    assert race_winner(ordered) == 3
    assert race_winner(standings([playing])) is None


def test_a_race_nobody_won_has_no_winner_and_sends_its_order(player, rival):
    room = started_race(player, rival)
    for racer in (player, rival):
        game = Game.objects.get(race_entry__room=room, player=racer)
        services.game_resign(game=services.LockedGame(game.pk), player=racer)
    snapshot = race_snapshot(room=RaceRoom.objects.get(pk=room.pk))
    assert snapshot["winner"] is None
    assert snapshot["order"] == ["-score", "duration_ms", "moves"]


def test_an_idle_lobby_expires(player, rival):
    room = races.race_create(player=player)
    RaceRoom.objects.filter(pk=room.pk).update(touched_at=timezone.now() - races.IDLE * 2)
    assert races.race_expire_idle() == 1
    assert RaceRoom.objects.get(pk=room.pk).status == "expired"
    refused("race_over", races.race_join, player=rival, room=room.room)


def test_the_operators_command_ends_idle_rooms(player):
    idle = races.race_create(player=player)
    RaceRoom.objects.filter(pk=idle.pk).update(touched_at=timezone.now() - races.IDLE * 2)
    output = io.StringIO()
    call_command("expire_races", stdout=output)
    assert output.getvalue() == "1 idle race rooms looked at\n"
    assert RaceRoom.objects.get(pk=idle.pk).status == "expired"


def test_an_idle_race_ends_its_unfinished_games_and_finishes(player, rival):
    room = started_race(player, rival)
    long_ago = timezone.now() - races.IDLE * 2
    RaceRoom.objects.filter(pk=room.pk).update(touched_at=long_ago)
    races.race_expire_if_idle(room=room.room)
    assert RaceRoom.objects.get(pk=room.pk).status == "finished"
    assert set(Game.objects.filter(race_entry__room=room).values_list("status", flat=True)) == {
        "resigned"
    }


def test_a_race_still_being_played_is_not_idle(player, rival):
    room = started_race(player, rival)
    game = Game.objects.get(race_entry__room=room, player=player)
    RaceRoom.objects.filter(pk=room.pk).update(touched_at=timezone.now() - races.IDLE * 2)
    services.game_tap(game=services.LockedGame(game.pk), player=player, seq=1, target="stock")
    races.race_expire_if_idle(room=room.room)
    assert RaceRoom.objects.get(pk=room.pk).status == "running"


def test_a_racer_may_open_the_rooms_deal_only_from_the_start_instant(player, rival):
    room = races.race_create(player=player, code=CODE)
    races.race_join(player=rival, room=room.room)
    refused("race_lobby", rooms.race_lobby_check, player=rival, code=CODE.lower())
    ready_all(room, [player, rival])  # counting down: the deal is still nobody's
    refused("race_lobby", rooms.race_lobby_check, player=player, code=CODE)
    RaceRoom.objects.filter(pk=room.pk).update(starts_at=timezone.now())
    races.race_begin_if_due(room=room.room)
    rooms.race_lobby_check(player=rival, code=CODE)  # the race game opens now
    rooms.race_lobby_check(player=rival, code="HH1-N-AAAAAAD")  # never another deal


def test_only_games_before_the_race_mark_a_racer_as_having_played_its_deal(player, rival):
    rivals = services.game_open(player=rival, code=CODE)
    services.game_resign(game=services.LockedGame(rivals.pk), player=rival)
    room = started_race(player, rival, CODE)
    for racer in (player, rival):
        game = Game.objects.get(race_entry__room=room, player=racer)
        services.game_resign(game=services.LockedGame(game.pk), player=racer)
    services.game_open(player=player, code=CODE)  # Ann plays it again after the race
    entries = race_snapshot(room=RaceRoom.objects.get(pk=room.pk))["entries"]
    assert {e["name"]: e["played_before"] for e in entries} == {"Ann": False, "Bea": True}
