"""Tapping, as docs/rules.md says, including its "where the rules are silent" readings."""

import pytest

from game.engine import (
    MISMATCH_CODE,
    MISMATCH_REASON,
    Event,
    ParseError,
    new_game,
    parse_target,
    tap,
)

from .pictures import SEED_DEAL, play


@pytest.fixture
def seed():
    return new_game(SEED_DEAL)


def test_tapping_a_free_card_selects_it(seed):
    state, event = tap(seed, 25)
    assert event == Event.SELECTED and state.selected == 25


def test_tapping_the_waste_selects_its_top_card(seed):
    state, event = tap(seed, "waste")
    assert event == "selected" and state.selected == "waste"


def test_tapping_the_selected_card_again_deselects_it(seed):
    state, events = play(seed, 25, 25)
    assert events == ["selected", "deselected"] and state.selected is None
    state, events = play(seed, "waste", "waste")
    assert events == ["selected", "deselected"] and state.selected is None


def test_tapping_a_covered_card_does_nothing(seed):
    state, event = tap(seed, 1)
    assert event == Event.NONE and state is seed


def test_seed_example_tapping_covered_position_1_of_hh1_n_aaaaaam_does_nothing():
    start = new_game("HH1-N-AAAAAAM")
    assert start.rank_at(1) == 10  # the seed's 10 of hearts at position 1
    assert tap(start, 1) == (start, Event.NONE)


def test_seed_example_the_tip_then_a_waste_card_of_another_rank_leaves_the_waste_selected(seed):
    assert (seed.rank_at(25), seed.waste_top) == (4, 1)
    state, events = play(seed, 25, "waste")
    assert events == ["selected", "mismatch"] and state.selected == "waste"


def test_a_mismatch_removes_nothing_and_is_not_a_move(seed):
    state, _ = play(seed, 25, "waste")
    assert (state.moves, state.score, state.heart_left, state.can_undo) == (0, 0, 25, False)


def test_a_mismatch_carries_the_reason_must_be_same_rank():
    assert MISMATCH_REASON == "must be same rank" and MISMATCH_CODE == "same_rank"


def test_seed_example_pairing_the_tip_with_the_waste_frees_the_two_cards_it_covered(seed):
    state, events = play(seed, "stock", "stock", 25, "waste")
    assert events == ["draw", "draw", "selected", "pair"]
    assert state.rank_at(25) is None and state.free == 1 << 23 | 1 << 24
    assert state.selected is None and state.moves == 3


def test_a_pair_with_the_waste_scores_10(seed):
    state, _ = play(seed, "stock", "stock", "waste", 25)
    assert state.score == 10 and state.waste_top == 8


def test_two_free_heart_cards_of_the_same_rank_leave_as_a_pair_scoring_20(seed):
    state, _ = play(seed, "stock", "stock", 25, "waste")
    state, events = play(state, 23, 24)
    assert events == ["selected", "pair"]
    assert state.score == 30 and state.heart_left == 22 and state.moves == 4


def test_a_space_emptied_in_the_heart_stays_empty(seed):
    state, _ = play(seed, "stock", "stock", 25, "waste")
    assert tap(state, 25) == (state, Event.NONE)


def test_tapping_an_empty_position_does_nothing_and_keeps_the_selection(seed):
    state, _ = play(seed, "stock", "stock", 25, "waste", 23)
    assert tap(state, 25) == (state, Event.NONE) and state.selected == 23


def test_tapping_a_covered_card_keeps_the_selection(seed):
    state, _ = play(seed, 25)
    assert tap(state, 1) == (state, Event.NONE) and state.selected == 25


def test_tapping_the_stock_clears_the_selection(seed):
    state, events = play(seed, 25, "stock")
    assert events == ["selected", "draw"] and state.selected is None


def test_a_pair_clears_the_selection(seed):
    state, _ = play(seed, "stock", "stock", 25, "waste")
    assert state.selected is None


@pytest.mark.parametrize(
    "target", [0, 26, -1, True, False, 1.0, "1.0", "01", " 7", "tip", None, []]
)
def test_a_malformed_target_is_a_parse_error(seed, target):
    with pytest.raises(ParseError):
        tap(seed, target)


@pytest.mark.parametrize(
    "value, target",
    [(1, 1), (25, 25), ("7", 7), ("25", 25), ("stock", "stock"), ("waste", "waste")],
)
def test_a_target_is_a_position_1_to_25_the_stock_or_the_waste(value, target):
    assert parse_target(value) == target


def test_a_digit_string_target_taps_like_its_number(seed):
    assert tap(seed, "25") == tap(seed, 25)
