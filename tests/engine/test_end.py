"""The end of the game: won when the heart is empty; deadlocked when no pair can ever form."""

from game.engine import Event, new_game, possible_pairs, replay, solve, tap, undo

from .pictures import SEED_DEAL, STUCK_AFTER_A_PAIR_DEAL, STUCK_DEAL, play

WINNABLE = "HH1-N-HEARTSS"


def test_a_game_is_won_when_all_25_heart_cards_are_gone_even_with_cards_in_the_stock():
    won = replay(WINNABLE, solve(WINNABLE))
    assert won.won and won.heart_left == 0 and won.score == 250
    assert won.stock  # the stock still holds cards
    assert not won.deadlocked


def test_a_won_game_is_over_nothing_more_can_be_tapped():
    won = replay(WINNABLE, solve(WINNABLE))
    for target in ["stock", "waste", *range(1, 26)]:
        assert tap(won, target) == (won, Event.NONE)


def test_deadlock_when_no_free_card_has_a_partner_in_the_heart_stock_or_waste():
    stuck = new_game(STUCK_DEAL)
    assert stuck.deadlocked and possible_pairs(stuck) == []
    assert solve(STUCK_DEAL) is None


def test_not_deadlocked_while_a_partner_waits_in_the_stock():
    state = new_game(SEED_DEAL)
    assert state.waste_top != 4 and 4 in state.stock
    assert not state.deadlocked


def test_a_move_can_deadlock_the_game():
    state, _ = play(new_game(STUCK_AFTER_A_PAIR_DEAL), "stock", "stock", 25)
    assert not state.deadlocked
    assert tap(state, "waste")[0].deadlocked


def test_undo_still_works_when_deadlocked():
    state, _ = play(new_game(STUCK_AFTER_A_PAIR_DEAL), "stock", "stock", 25, "waste")
    assert state.deadlocked and state.can_undo
    back = undo(state)
    assert not back.deadlocked and back.rank_at(25) == 4


def test_a_deadlocked_game_still_takes_taps_but_no_pair_forms():
    state, _ = play(new_game(STUCK_AFTER_A_PAIR_DEAL), "stock", "stock", 25, "waste")
    state, events = play(state, 23, 24, "stock", "waste", 23)
    assert "pair" not in events and state.deadlocked
