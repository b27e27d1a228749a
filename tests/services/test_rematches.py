"""Racing again: one rematch per race however many press, only for its racers, only for
30 seconds after its end; the old room links to it and keeps its own table."""

import datetime
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
import time_machine
from django.db import connection
from django.utils import timezone

from game import services
from game.domain.errors import GameError
from game.models import Game, RaceRoom, RatingChange
from game.selectors.races import race_room_snapshot
from game.services import races, rematches

pytestmark = pytest.mark.django_db


def refused(error: str, **arguments) -> None:
    with pytest.raises(GameError) as caught:
        rematches.race_again(**arguments)
    assert caught.value.code == error and caught.value.message


def started_race(first, *others) -> RaceRoom:
    room = races.race_create(player=first)
    for racer in others:
        races.race_join(player=racer, room=room.room)
    for racer in (first, *others):
        races.race_ready(player=racer, room=room.room, ready=True)
    RaceRoom.objects.filter(pk=room.pk).update(starts_at=timezone.now())
    assert races.race_begin_if_due(room=room.room)
    return RaceRoom.objects.get(pk=room.pk)


def finished_race(*racers) -> RaceRoom:
    return race_ended(started_race(*racers), racers)


def race_ended(room: RaceRoom, racers) -> RaceRoom:
    for racer in racers:
        game = Game.objects.get(race_entry__room=room, player=racer)
        services.game_resign(game=services.LockedGame(game.pk), player=racer)
    return RaceRoom.objects.get(pk=room.pk)


def test_racers_who_race_again_meet_in_one_new_room_on_a_fresh_deal(player, rival):
    old = finished_race(player, rival)
    rematch = rematches.race_again(player=player, room=old.room)
    assert rematches.race_again(player=rival, room=old.room) == rematch
    assert rematch.fresh and rematch.quick and rematch.code != old.code
    assert {e.player for e in rematch.entries.all()} == {player, rival}
    rematch.refresh_from_db()  # two are in: it counts down by itself, with no Ready
    assert rematch.status == "running" and rematch.starts_at > timezone.now()


def test_the_old_room_links_to_its_rematch_and_keeps_its_table(player, rival):
    old = finished_race(player, rival)
    table = race_room_snapshot(room=old.room)["entries"]
    rematch = rematches.race_again(player=rival, room=old.room)
    shown = race_room_snapshot(room=old.room)
    assert shown["rematch"] == {"room": rematch.room, "url": f"/race/{rematch.room}/"}
    assert shown["status"] == "finished" and shown["entries"] == table
    assert shown["version"] == old.version + 1  # its sockets hear of the link


def test_pressing_twice_changes_nothing(player, rival):
    old = finished_race(player, rival)
    first = rematches.race_again(player=player, room=old.room)
    assert rematches.race_again(player=player, room=old.room) == first
    assert first.entries.count() == 1 and RaceRoom.objects.count() == 2


def test_racing_again_is_open_for_30_seconds_after_the_end(player, rival, make_player):
    old = finished_race(player, rival)
    with time_machine.travel(old.finished_at + datetime.timedelta(seconds=30), tick=False):
        rematch = rematches.race_again(player=player, room=old.room)
    with time_machine.travel(old.finished_at + datetime.timedelta(seconds=30.001), tick=False):
        refused("rematch_too_late", player=rival, room=old.room)
    assert list(rematch.entries.values_list("player", flat=True)) == [player.pk]


def test_only_a_finished_races_racers_race_again(player, rival, make_player):
    room = started_race(player, rival)
    refused("race_not_over", player=player, room=room.room)
    finished = finished_race(make_player("cid"), make_player("dot"))
    refused("not_a_racer", player=player, room=finished.room)
    refused("no_such_room", player=player, room="ZZZZZZ")
    assert not RaceRoom.objects.filter(rematch__isnull=False).exists()


def test_a_racer_overtaken_by_another_joins_the_rematch_that_was_linked(player, rival, monkeypatch):
    old = finished_race(player, rival)
    checked, other_racer, others = rematches._check_may_race_again, [rival], []

    def the_other_links_first(found, racer):
        checked(found, racer)  # this racer has read the room: no rematch yet
        while other_racer:  # the other read it too, and links theirs first
            others.append(rematches.race_again(player=other_racer.pop(), room=found.room))

    monkeypatch.setattr(rematches, "_check_may_race_again", the_other_links_first)
    rematch = rematches.race_again(player=player, room=old.room)
    assert rematch == others[0] == RaceRoom.objects.get(pk=old.pk).rematch
    assert RaceRoom.objects.count() == 2  # the overtaken room went with its savepoint
    assert rematch.entries.count() == 2


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_racers_pressing_at_once_on_their_own_connections_make_one_rematch(
    make_player, monkeypatch
):
    racers = [make_player(f"racer{n}") for n in range(6)]
    old = finished_race(*racers)
    read_it, all_read = rematches._check_may_race_again, threading.Barrier(len(racers))

    def checked_once_everyone_has_read(room, player):
        read_it(room, player)
        all_read.wait(timeout=10)  # every racer has seen no rematch before anyone makes one

    def again(racer) -> RaceRoom:
        try:
            return rematches.race_again(player=racer, room=old.room)
        finally:
            connection.close()

    monkeypatch.setattr(rematches, "_check_may_race_again", checked_once_everyone_has_read)
    with ThreadPoolExecutor(len(racers)) as pool:
        rooms = set(pool.map(again, racers))
    assert len(rooms) == 1 and RaceRoom.objects.count() == 2
    assert rooms == {RaceRoom.objects.get(pk=old.pk).rematch}
    assert rooms.pop().entries.count() == len(racers)


def test_the_room_shows_each_racers_rating_change_and_none_before_it_is_rated(player, rival):
    old = finished_race(player, rival)
    RatingChange.objects.filter(room=old).delete()  # as if the race were not rated yet
    assert [e["rating_change"] for e in race_room_snapshot(room=old.room)["entries"]] == [None] * 2
    RatingChange.objects.create(
        player=rival,
        kind="race",
        room=old,
        at=timezone.now(),
        rating=1492.2,
        deviation=300,
        delta=-7.6,
    )
    entries = race_room_snapshot(room=old.room)["entries"]
    assert {e["player"]: e["rating_change"] for e in entries} == {player.pk: None, rival.pk: -8}


def test_the_room_says_until_when_its_racers_may_race_again(player, rival):
    room = started_race(player, rival)
    assert race_room_snapshot(room=room.room)["again_until"] is None
    finished = race_ended(room, [player, rival])
    until = datetime.datetime.fromisoformat(race_room_snapshot(room=room.room)["again_until"])
    assert until == finished.finished_at + datetime.timedelta(seconds=30)
