"""Undo: the last 100 moves, draws included; cards, score and moves come back exactly."""

import pytest

from game.engine import RuleError, new_game, replay, solve, tap, undo

from .pictures import SEED_DEAL, play

WINNABLE = "HH1-N-HEARTSS"


def test_undo_takes_back_a_draw():
    start = new_game(SEED_DEAL)
    state = undo(tap(start, "stock")[0])
    assert (state.stock, state.waste, state.moves) == (start.stock, start.waste, 0)


def test_undo_takes_back_a_pair_with_its_points_and_cards():
    before, _ = play(new_game(SEED_DEAL), "stock", "stock", 25)
    after, _ = play(before, "waste")
    state = undo(after)
    assert after.score == 10 and state.score == 0
    assert state.rank_at(25) == 4 and state.waste_top == 4 and state.moves == 2
    assert state.pos == before.pos


def test_undo_takes_back_a_redeal():
    before, _ = play(new_game(SEED_DEAL), *["stock"] * 26)
    state = undo(tap(before, "stock")[0])
    assert state.pos == before.pos


def test_undo_clears_the_selection():
    state, _ = play(new_game(SEED_DEAL), "stock", 25)
    assert undo(state).selected is None


def test_undo_steps_back_over_selections_to_the_last_move():
    start = new_game(SEED_DEAL)
    state, _ = play(start, "stock", 25, "waste", 25)  # draw, select, mismatch, mismatch
    assert undo(state).pos == start.pos


def test_undo_counts_the_undos_used():
    state, _ = play(new_game(SEED_DEAL), "stock", "stock")
    assert undo(undo(state)).undos == 2


def test_undo_reaches_back_exactly_100_moves_and_nothing_older():
    start = new_game(SEED_DEAL)
    state, _ = play(start, *["stock"] * 150)
    expected, _ = play(start, *["stock"] * 50)
    for _ in range(100):
        state = undo(state)
    assert state.pos == expected.pos and not state.can_undo
    with pytest.raises(RuleError, match="nothing to undo"):
        undo(state)


def test_undo_with_nothing_to_undo_is_a_rule_error():
    start = new_game(SEED_DEAL)
    assert not start.can_undo
    with pytest.raises(RuleError):
        undo(start)
    with pytest.raises(RuleError):
        undo(tap(start, 25)[0])  # a selection is not a move


def test_a_won_game_cannot_be_undone():
    won = replay(WINNABLE, solve(WINNABLE))
    assert won.won and not won.can_undo
    with pytest.raises(RuleError, match="won"):
        undo(won)


def test_moves_made_after_an_undo_can_be_undone_too():
    start = new_game(SEED_DEAL)
    state, _ = play(undo(tap(start, "stock")[0]), "stock", "stock")
    assert undo(undo(state)).pos == start.pos
