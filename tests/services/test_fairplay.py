"""Plausibility flags (game/fairplay.py): pure, so tested with no database."""

import doctest
import random
from datetime import datetime, timedelta

from bench import flags as bench
from game import fairplay
from game.fairplay import MACHINE_TAP_S, REASONS, flags_for, timed_moves

START = datetime(2026, 1, 1, 12, 0)
DRAWS = ["stock"] * 30
PAIRS = ["25", "waste"] * 13


def paced(actions, *intervals):
    """A stored log: each entry's time is the last one's plus the next interval, cycled; the two
    entries of a pair share their time, as the server stores them."""
    log, at, pending, step = [], START, None, 0
    for action in actions:
        if pending is None and action not in ("stock", "undo", "help-on", "help-off"):
            pending = action
            continue
        at += timedelta(seconds=intervals[step % len(intervals)])
        step += 1
        log += [(pending, at)] if pending else []
        log.append((action, at))
        pending = None
    return log


def reasons(log):
    return [flag.reason for flag in flags_for(started_at=START, log=log)]


def test_a_pair_is_one_move_of_two_taps_timed_at_its_second_entry():
    log = paced(["stock", "7", "waste"], 1.0, 3.0)
    assert [
        (move.pair, move.taps, move.seconds) for move in timed_moves(started_at=START, log=log)
    ] == [
        (False, 1, 1.0),
        (True, 2, 3.0),
    ]


def test_a_solver_line_at_the_socket_rate_limit_is_flagged_for_its_taps_and_its_pairs():
    ten_frames_a_second = [0.1] * len(DRAWS) + [0.2] * (len(PAIRS) // 2)  # a pair is two frames
    flags = flags_for(started_at=START, log=paced(DRAWS + PAIRS, *ten_frames_a_second))
    assert [flag.reason for flag in flags] == ["fast_taps", "fast_pairs"]
    assert flags[0].detail == "43 of 43 moves came at under 0.15 s a tap (median 0.100 s a tap)"
    assert flags[1].detail == "13 of 13 pairs came at under 0.15 s a tap (median 0.100 s a tap)"


def test_a_persons_pace_is_not_flagged():
    assert reasons(paced(DRAWS + PAIRS, 0.6, 1.2, 3.0)) == []


def test_a_person_flicking_through_the_stock_at_five_draws_a_second_is_not_flagged():
    actions = (["stock"] * 4 + ["25", "waste"]) * 13
    assert reasons(paced(actions, 0.2, 0.2, 0.2, 0.2, 0.8)) == []


def test_instant_pairs_among_slow_draws_are_flagged_as_fast_pairs():
    actions = (["stock"] * 3 + ["25", "waste"]) * 13
    assert reasons(paced(actions, 1.0, 1.0, 1.0, 0.2)) == ["fast_pairs"]


def test_half_the_moves_at_machine_speed_is_not_most_of_the_game():
    assert reasons(paced(DRAWS, 0.05, 1.0)) == []
    assert reasons(paced(DRAWS, 0.05, 0.05, 1.0)) == ["fast_taps"]


def test_a_pace_just_under_a_persons_fastest_tap_is_machine_speed_and_just_over_is_not():
    assert reasons(paced(DRAWS, MACHINE_TAP_S * 0.99)) == ["fast_taps"]
    assert reasons(paced(DRAWS, MACHINE_TAP_S * 1.01)) == []


def test_too_few_moves_say_nothing_about_a_pace():
    assert reasons(paced(["stock"] * 9, 0.01)) == []
    assert reasons(paced(["stock"] * 2 + ["25", "waste"] * 7, 0.01)) == []  # 9 moves, 7 pairs


def test_the_first_move_is_timed_from_the_start_of_the_clock():
    late_start = [(action, at + timedelta(seconds=60)) for action, at in paced(DRAWS, 0.05)]
    assert timed_moves(started_at=START, log=late_start)[0].seconds > 60


def test_every_reason_has_a_description():
    assert set(REASONS) == {"fast_taps", "fast_pairs"}
    assert all(REASONS.values())


def test_solver_bots_at_the_rate_limit_are_flagged_and_simulated_people_are_not():
    rng = random.Random(7)
    codes = bench.winnable_codes(rng)
    for _ in range(5):
        log = bench.bot_game(next(codes), rate=10, burst=20)
        assert len(flags_for(started_at=bench.START, log=log)) == 2
    for _ in range(20):
        log, _ = bench.person_game(next(codes), rng, (0.6, 3.0))
        assert flags_for(started_at=bench.START, log=log) == []


def test_the_modules_examples_hold():
    # attempted too: a module whose examples were lost would otherwise pass with none run
    result = doctest.testmod(fairplay)
    assert result.attempted > 0 and result.failed == 0
