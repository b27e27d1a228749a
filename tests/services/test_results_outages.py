"""A result's time leaves out the outages inside its game, and only those: the audit re-derives
the same time, before and after the old heartbeats are merged, and a player's own absence
while a server was alive still counts."""

import io
from datetime import UTC, datetime

import pytest
import time_machine
from django.core.management import CommandError, call_command

from game import services
from game.models import Result, ServerBeat
from game.selectors.outages import BEAT_TOLERANCE
from game.services.server_beats import server_beats_compact
from tests.outages import beat_from, seconds

pytestmark = pytest.mark.django_db

T0 = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
CODE = "HH1-N-AAAAAAC"


def resigned_at(player, end: datetime, beats) -> Result:
    """A game of `player` started at T0 and resigned at `end`, while `beats` (the clock) ran."""
    with time_machine.travel(T0, tick=False) as clock:
        game = services.game_open(player=player, code=CODE)
        beats(clock)
        clock.move_to(end)
        services.game_resign(game=services.LockedGame(game.pk), player=player)
    return Result.objects.get(game=game)


def audited() -> str:
    out = io.StringIO()
    call_command("audit_results", stdout=out, stderr=io.StringIO())
    return out.getvalue()


def restart(clock) -> None:
    """The only process dies 10 s in and is back 40 s in."""
    beat_from(clock, "a", T0 - seconds(30), T0 + seconds(10))
    beat_from(clock, "b", T0 + seconds(40), T0 + seconds(60))


def test_a_game_spanning_an_outage_is_timed_without_it_and_the_audit_agrees(player):
    result = resigned_at(player, T0 + seconds(60), restart)
    outage = seconds(40) - seconds(10) - BEAT_TOLERANCE
    assert result.duration_ms == (seconds(60) - outage) // seconds(0.001) == 34_000
    assert audited() == "1 results audited, 0 disagreements\n"
    Result.objects.filter(pk=result.pk).update(duration_ms=60_000)  # the outage counted
    with pytest.raises(CommandError, match="disagree"):
        audited()


def test_a_players_own_absence_while_a_server_beats_counts(player):
    def steady(clock):
        beat_from(clock, "a", T0 - seconds(30), T0 + seconds(60))

    assert resigned_at(player, T0 + seconds(60), steady).duration_ms == 60_000


def test_merging_old_stretches_keeps_every_outage(player):
    def restarts(clock):
        restart(clock)
        beat_from(clock, "c", T0 + seconds(50), T0 + seconds(90))  # a second process

    result = resigned_at(player, T0 + seconds(60), restarts)
    assert ServerBeat.objects.count() == 3
    assert server_beats_compact(before=T0 + seconds(100)) == 3
    assert list(ServerBeat.objects.order_by("since").values_list("since", "until")) == [
        (T0 - seconds(30), T0 + seconds(10)),
        (T0 + seconds(40), T0 + seconds(90)),
    ]
    assert audited() == "1 results audited, 0 disagreements\n"
    assert result.duration_ms == 34_000


def test_a_result_written_while_the_next_beat_is_late_counts_no_outage_then_or_later(player):
    stretch = None

    def steady_then_late(clock):
        nonlocal stretch
        stretch = beat_from(clock, "a", T0 - seconds(30), T0 + seconds(56))

    result = resigned_at(player, T0 + seconds(59), steady_then_late)  # 3 s after the last beat
    with time_machine.travel(T0 + seconds(59.5), tick=False) as clock:
        beat_from(clock, "a", T0 + seconds(59.5), T0 + seconds(70), stretch)
    assert result.duration_ms == 59_000
    assert audited() == "1 results audited, 0 disagreements\n"
