"""Concurrency on real daphne processes: players at once on SQLite; on PostgreSQL + Redis, 200
players finishing the daily deal at once across two processes, and two tabs of one game."""

import pytest

from tests.harness import concurrency
from tests.system.conftest import in_thread

SQLITE_SECONDS = 20  # `python -m bench.concurrency sqlite` runs the full minute


@pytest.mark.slow
def test_twenty_players_at_five_taps_a_second_never_lock_sqlite():
    report = in_thread(concurrency.sqlite_run, players=20, rate=5, seconds=SQLITE_SECONDS)
    assert report["database_is_locked"] == 0 and report["tracebacks"] == 0
    assert report["errors"] == []
    assert report["taps"] >= 20 * 5 * SQLITE_SECONDS * 0.8


@pytest.mark.slow
@pytest.mark.postgres
@pytest.mark.redis
def test_two_hundred_players_finishing_the_daily_at_once_on_two_processes():
    report = in_thread(concurrency.daily_run, players=200)
    assert report["final_pairs_sent"] == 400  # each final pair from a tab on each process
    assert report["all_final_taps_sent_within_s"] < 1
    assert report["results"] == report["distinct_players"] == report["won"] == 200
    assert report["winning_replies"] == 200 and set(report["refusals"]) <= {"duplicate_seq"}
    assert report["same_board_on_both"] and report["board_in_rank_order"]
    assert report["ranks_match_order"] and report["tracebacks"] == 0


@pytest.mark.slow
@pytest.mark.postgres
@pytest.mark.redis
def test_two_tabs_on_two_processes_leave_one_valid_log():
    report = in_thread(concurrency.tabs_run, seconds=8)
    assert report["actions"] > 0 and report["count_matches"]
    assert report["both_tabs_show_the_stored_game"]
    assert report["unanswered"] == []  # every frame gets its reply
    assert all(set(refused) <= {"duplicate_seq"} for refused in report["refused"])
