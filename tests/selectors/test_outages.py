"""Outages: the time in which no server process recorded a heartbeat, bounded by beats, which a
game's time leaves out; a process's own pauses within the tolerance are none."""

from datetime import UTC, datetime

import pytest
import time_machine

from game.models import ServerBeat
from game.selectors.outages import BEAT_TOLERANCE, game_time_ms, outage_ms
from tests.outages import beat_from, seconds

pytestmark = pytest.mark.django_db

T0 = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


def test_a_gap_between_every_processs_beats_is_an_outage_and_only_its_part_inside_counts():
    with time_machine.travel(T0, tick=False) as clock:
        beat_from(clock, "a", T0, T0 + seconds(10))
        beat_from(clock, "a", T0 + seconds(40), T0 + seconds(60))  # restarted: a new stretch
    gap = seconds(40) - seconds(10) - BEAT_TOLERANCE  # what the last beat vouches for
    assert ServerBeat.objects.count() == 2
    assert outage_ms(start=T0, end=T0 + seconds(60)) == gap // seconds(0.001)
    assert outage_ms(start=T0 + seconds(20), end=T0 + seconds(60)) == 20_000
    assert outage_ms(start=T0 + seconds(20), end=T0 + seconds(30)) == 10_000
    assert outage_ms(start=T0 + seconds(45), end=T0 + seconds(60)) == 0
    assert game_time_ms(started_at=T0, finished_at=T0 + seconds(60)) == 60_000 - 26_000


def test_no_outage_while_any_process_beats():
    with time_machine.travel(T0, tick=False) as clock:
        beat_from(clock, "a", T0, T0 + seconds(10))
        beat_from(clock, "b", T0 + seconds(8), T0 + seconds(30))  # took over before a died
        beat_from(clock, "a", T0 + seconds(25), T0 + seconds(60))
    assert outage_ms(start=T0, end=T0 + seconds(60)) == 0


def test_a_beat_late_within_the_tolerance_keeps_its_process_alive():
    with time_machine.travel(T0, tick=False) as clock:
        stretch = beat_from(clock, "a", T0, T0 + seconds(10))
        beat_from(clock, "a", T0 + seconds(13), T0 + seconds(21), stretch)  # 1 s late
        beat_from(clock, "a", T0 + seconds(31), T0 + seconds(41), stretch)  # 10 s: too late
    assert ServerBeat.objects.count() == 2
    assert outage_ms(start=T0, end=T0 + seconds(41)) == 10_000 - 4_000


def test_an_outage_still_going_ends_at_the_instant_asked_when_a_server_answers_again():
    with time_machine.travel(T0, tick=False) as clock:
        beat_from(clock, "a", T0, T0 + seconds(10))
    assert outage_ms(start=T0 + seconds(5), end=T0 + seconds(30)) == 16_000


def test_before_the_first_beat_ever_recorded_there_is_no_outage():
    assert outage_ms(start=T0, end=T0 + seconds(60)) == 0
    with time_machine.travel(T0 + seconds(30), tick=False) as clock:
        beat_from(clock, "a", T0 + seconds(30), T0 + seconds(40))
    assert outage_ms(start=T0, end=T0 + seconds(60)) == 16_000  # only after a beat was seen
