"""The fault suite's figures (tests/harness/faults.py), from trial records made by hand: what
counts as a lost move, a locked-out player, a tap answered during the fault, and a process
ready again, and what the suite fails on."""

from collections import Counter

from tests.harness.faults import Tap, Trial, figures, problems, table
from tests.harness.readyz import Probe


def trial(**record) -> Trial:
    """A trial of two players whose fault ran from 10 s to 20 s on its clock."""
    return Trial("database read-only", players=2, began=10.0, ended=20.0, **record)


def probe(at: float, process: int = 0, status: int = 200, reason: str = "") -> Probe:
    return Probe(at, process, status, seconds=0.01, reason=reason)


def answered(player: int, sent: float, after: float | None) -> Tap:
    return Tap(player, sent, None if after is None else sent + after)


BOTH_SERVED_AFTER = [answered(0, 21.0, 0.1), answered(1, 22.0, 0.1)]


def test_an_acknowledged_move_missing_from_the_stored_log_is_lost_and_fails_the_suite():
    row = figures(trial(acknowledged={7: 40, 8: 12}, stored={7: 39, 8: 12}, taps=BOTH_SERVED_AFTER))
    assert (row["acknowledged"], row["stored"], row["lost"]) == (52, 51, 1)
    assert problems(row) == ["database read-only: 1 acknowledged moves not stored"]


def test_moves_stored_whose_answer_was_lost_are_not_a_loss():
    row = figures(trial(acknowledged={7: 40}, stored={7: 41}, taps=BOTH_SERVED_AFTER))
    assert row["lost"] == 0 and problems(row) == []


def test_a_game_the_database_does_not_have_loses_every_move_acknowledged_on_it():
    row = figures(trial(acknowledged={"storm3": 1, 9: 2}, stored={9: 2}, taps=BOTH_SERVED_AFTER))
    assert row["lost"] == 1


def test_a_player_with_no_tap_answered_within_ten_seconds_of_the_fault_end_is_locked_out():
    taps = [answered(0, 19.5, 1.0), answered(1, 21.0, None), answered(1, 29.0, 1.5)]
    row = figures(trial(taps=taps))
    assert row["locked_out"] == 1
    assert problems(row) == ["database read-only: 1 players locked out"]


def test_a_storms_socket_never_greeted_again_is_locked_out_too():
    assert figures(trial(taps=BOTH_SERVED_AFTER, not_resumed=3))["locked_out"] == 3


def test_taps_answered_during_the_fault_are_those_sent_in_it_and_answered_within_two_seconds():
    taps = [
        answered(0, 9.0, 0.1),  # before the fault
        answered(0, 11.0, 0.2),
        answered(1, 12.0, 1.9),
        answered(1, 14.0, 6.0),  # answered, but the game did not go on
        answered(0, 18.0, None),
        *BOTH_SERVED_AFTER,
    ]
    assert figures(trial(taps=taps))["taps_in_fault"] == {"sent": 4, "answered": 2, "ratio": 0.5}


def test_resume_times_are_told_as_their_middle_and_99th_percentile():
    row = figures(trial(taps=BOTH_SERVED_AFTER, resumes=[0.2 * n for n in range(1, 101)]))
    assert (row["resumed"], row["resume_p50_s"], row["resume_p99_s"]) == (100, 10.2, 20.0)
    assert figures(trial(taps=BOTH_SERVED_AFTER))["resume_p50_s"] is None


def test_readyz_tells_the_share_ready_in_the_fault_and_when_every_process_is_ready_for_good():
    record = trial(taps=BOTH_SERVED_AFTER)
    down = "database: database_read_only"
    record.clock.probes += [probe(at, status=503, reason=down) for at in (11.0, 12.0, 13.0)]
    record.clock.probes += [probe(14.0), probe(20.5, status=503, reason=down), probe(21.0)]
    record.clock.probes += [probe(at, process=1) for at in (12.0, 20.2, 21.0)]
    row = figures(record)
    assert row["readyz_ready_in_fault"] == 0.4  # 2 of 5
    assert row["readyz_said_in_fault"] == {down: 3}
    assert row["readyz_ready_again_s"] == 1.01  # process 0's probe at 21 s, answered in 10 ms


def test_a_process_never_ready_again_after_the_fault_is_said_so_in_the_table():
    record = trial(taps=BOTH_SERVED_AFTER)
    record.clock.probes += [probe(21.0, status=0, reason="no answer"), probe(21.0, process=1)]
    row = figures(record)
    assert row["readyz_ready_again_s"] is None
    assert table([row]).splitlines()[-1].endswith("| never |")


def test_a_close_with_1011_fails_the_suite():
    row = figures(trial(taps=BOTH_SERVED_AFTER, closes=Counter({1006: 4, 1011: 2})))
    assert row["closes"] == {"1006": 4, "1011": 2}
    assert problems(row) == ["database read-only: 2 sockets closed with 1011"]


def test_the_table_has_a_row_a_trial_under_its_header():
    taps = [answered(0, 12.0, 0.5), answered(1, 12.5, None), *BOTH_SERVED_AFTER]
    record = trial(taps=taps, acknowledged={1: 1200, 2: 3}, stored={1: 1200, 2: 3})
    record.clock.probes += [probe(15.0, status=503, reason="database: database_read_only")]
    record.clock.probes += [probe(16.0), probe(20.49)]
    lines = table([figures(record), figures(record)]).splitlines()
    assert len(lines) == 4 and lines[0].startswith("| trial | fault | moves acknowledged")
    assert lines[2] == (
        "| database read-only | 10 s | 1,203 / 1,203 | 0 | 0 | 1 of 2 (50%) | – / – | 50% "
        "| 0.50 s |"
    )
