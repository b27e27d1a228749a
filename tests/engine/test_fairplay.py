"""Plausibility flags (game/engine/fairplay.py): pure, so tested with no database."""

import doctest
import random
from datetime import datetime, timedelta

from game import engine
from game.engine import fairplay
from game.engine.fairplay import (
    MACHINE_TAP_S,
    REASONS,
    SCOUTED_CARDS,
    flags_for,
    peeked_cards,
    timed_moves,
)
from tests.harness import player_logs

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


def reasons(log, *, ranked=False):
    return [flag.reason for flag in flags_for(started_at=START, log=log, ranked=ranked)]


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
    assert set(REASONS) == {"fast_taps", "fast_pairs", "stock_scouted"}
    assert all(REASONS.values())


# Reading the stock by undoing draws (stock_scouted): counted on a ranked result's log.
STOCK = 26
SCOUTED = ["stock"] * STOCK + ["undo"] * STOCK + PAIRS  # the whole stock read, then a line played


def test_a_ranked_game_whose_every_stock_card_was_drawn_and_undone_is_flagged_at_a_persons_pace():
    flags = flags_for(started_at=START, log=paced(SCOUTED, 1.5), ranked=True)
    assert [(flag.reason, flag.detail) for flag in flags] == [
        (
            "stock_scouted",
            "26 of the stock's 26 cards were first shown by a draw that was then undone",
        )
    ]


def test_a_scouted_stock_is_not_flagged_on_an_unranked_game_whose_code_can_be_played_again():
    assert reasons(paced(SCOUTED, 1.5)) == []


def test_a_person_who_takes_back_one_unwanted_draw_is_not_flagged():
    log = paced(["stock"] * 5 + ["undo", "25", "waste", "stock"] + PAIRS, 1.5)
    assert peeked_cards(log) == 1 and reasons(log, ranked=True) == []


def test_a_person_who_takes_back_a_mistaken_pair_peeks_at_nothing():
    log = paced(["stock", "24", "25", "undo", "23", "25", "stock"] + PAIRS, 1.5)
    assert peeked_cards(log) == 0 and reasons(log, ranked=True) == []


def test_a_card_drawn_again_after_its_undo_was_peeked_at_once():
    assert peeked_cards(paced(["stock", "undo"] * 20, 1.5)) == 1


def test_after_a_redeal_every_stock_card_has_been_seen_so_undoing_draws_peeks_at_nothing():
    first_pass = ["stock"] * STOCK + ["stock"]  # every card turned, then the redeal
    log = paced(first_pass + ["stock"] * STOCK + ["undo"] * STOCK + ["undo"], 1.5)
    assert peeked_cards(log) == 0 and reasons(log, ranked=True) == []


def test_cards_peeked_at_before_the_first_pass_stay_peeked_after_it():
    # Half the stock read and taken back, then the whole pass played and redealt: 13 peeked.
    log = paced(["stock"] * 13 + ["undo"] * 13 + ["stock"] * STOCK + ["stock"], 1.5)
    assert peeked_cards(log) == 13


def test_a_card_paired_off_the_waste_moves_the_next_draw_on_to_an_unseen_card():
    # Drawn card 1 is paired with the tip, so the waste shows the dealt card again; the next
    # draw turns card 2, never seen: taking it back peeks at it, taking the pair back does not.
    log = paced(["stock", "25", "waste", "stock", "undo", "undo", "undo"], 1.5)
    assert peeked_cards(log) == 2  # card 2, then card 1's draw taken back too


def test_settings_changes_are_no_moves_for_the_pile():
    log = paced(["help-off", "stock", "help-on", "undo", "help-off"], 1.5)
    assert peeked_cards(log) == 1


def test_one_peek_under_the_threshold_is_not_flagged_and_at_it_is():
    under = ["stock"] * (SCOUTED_CARDS - 1) + ["undo"] * (SCOUTED_CARDS - 1) + PAIRS
    at = ["stock"] * SCOUTED_CARDS + ["undo"] * SCOUTED_CARDS + PAIRS
    assert reasons(paced(under, 1.5), ranked=True) == []
    assert reasons(paced(at, 1.5), ranked=True) == ["stock_scouted"]


def test_the_pile_read_from_a_log_is_the_engines_pile_after_every_move():
    """The log's shape alone gives the pile: checked against the engine over people's games
    with many undos and redeals."""
    rng = random.Random(3)
    codes = player_logs.winnable_codes(rng)
    for _ in range(20):
        code = next(codes)
        log, _ = player_logs.person_game(code, rng, (0.6, 3.0), **player_logs.UNDOERS)
        dealt = engine.new_game(code)
        ranks = dealt.waste + dealt.stock
        for (cards, turned), state in zip(piles(log), states(code, log), strict=True):
            assert tuple(ranks[card] for card in cards) == state.waste + state.stock
            assert turned == len(state.waste)


def piles(log):
    """The pile after each move, as fairplay follows it."""
    pile, history = (tuple(range(fairplay.PILE_SIZE)), 1), []
    for move in fairplay._pile_moves(log):
        if move == "undo":
            pile = history.pop()
        else:
            history.append(pile)
            pile = fairplay._pile_after(pile, move)
        yield pile


def states(code, log):
    """The engine's state after each move of the log."""
    state = engine.new_game(code)
    for action, _at in log:
        state, event = engine.step(state, action)
        if event == "undo" or (event != "settings" and event.is_move):
            yield state


def test_solver_bots_at_the_rate_limit_are_flagged_and_simulated_people_are_not():
    rng = random.Random(7)
    codes = player_logs.winnable_codes(rng)
    for _ in range(5):
        log = player_logs.bot_game(next(codes), rate=10, burst=20)
        assert len(flags_for(started_at=player_logs.START, log=log, ranked=True)) == 2
    for _ in range(20):
        log, _ = player_logs.person_game(next(codes), rng, (0.6, 3.0))
        assert flags_for(started_at=player_logs.START, log=log, ranked=True) == []


def test_scouts_at_a_persons_pace_are_flagged_for_the_stock_alone():
    rng = random.Random(7)
    codes = player_logs.winnable_codes(rng)
    for _ in range(5):
        log = player_logs.scout_game(next(codes), rng, (0.6, 3.0))
        flags = flags_for(started_at=player_logs.START, log=log, ranked=True)
        assert [flag.reason for flag in flags] == ["stock_scouted"]


def test_simulated_people_take_moves_back_and_rarely_peek():
    """Their undos are a person's: some, each for a reason, few of them taking back draws."""
    rng = random.Random(7)
    codes = player_logs.winnable_codes(rng)
    logs = [player_logs.person_game(next(codes), rng, (0.6, 3.0))[0] for _ in range(40)]
    assert sum(action == "undo" for log in logs for action, _ in log) >= 20
    assert max(peeked_cards(log) for log in logs) < SCOUTED_CARDS


def test_the_modules_examples_hold():
    # attempted too: a module whose examples were lost would otherwise pass with none run
    result = doctest.testmod(fairplay)
    assert result.attempted > 0 and result.failed == 0
