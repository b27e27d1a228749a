"""Stock and waste: draws, redeals in the same order, unlimited, each one move."""

from game.engine import Event, new_game, public_view, tap
from game.engine.state import make_state

from .pictures import SEED_DEAL, play


def test_tapping_the_stock_turns_its_top_card_onto_the_waste():
    start = new_game(SEED_DEAL)
    state, event = tap(start, "stock")
    assert event == Event.DRAW
    assert state.waste_top == start.stock[0] == 8
    assert state.stock == start.stock[1:] and state.waste == (1, 8)


def test_every_draw_and_every_redeal_counts_as_one_move():
    state, events = play(new_game(SEED_DEAL), *["stock"] * 27)
    assert events == ["draw"] * 26 + ["redeal"] and state.moves == 27


def test_an_empty_stock_redeals_the_whole_waste_in_the_order_first_turned():
    start = new_game(SEED_DEAL)
    state, _ = play(start, *["stock"] * 26)
    assert state.stock == () and len(state.waste) == 27
    turned_over, event = tap(state, "stock")
    assert event == Event.REDEAL and turned_over.waste == ()
    # The dealt waste card has lain longest: it is now the stock's top, then the cards as drawn.
    assert turned_over.stock == (start.waste_top,) + start.stock
    assert tap(turned_over, "stock")[0].waste_top == start.waste_top


def test_redeals_are_unlimited():
    start = new_game(SEED_DEAL)
    # 26 draws empty the stock the first time; after a redeal all 27 cards are drawn again.
    state, events = play(start, *["stock"] * (27 + 28 * 4))
    assert events.count("redeal") == 5 and state.stock == (start.waste_top,) + start.stock


def test_cards_removed_in_pairs_are_gone_from_the_cycle():
    start = new_game(SEED_DEAL)
    state, _ = play(start, "stock", "stock", 25, "waste", *["stock"] * 24)
    assert state.stock == () and 4 not in state.waste[:3]
    state, event = tap(state, "stock")
    assert event == "redeal" and state.stock == (1, 8) + start.stock[2:]


def test_only_the_waste_top_can_be_played():
    state, _ = play(new_game(SEED_DEAL), "stock", "stock", "stock")
    assert public_view(state)["waste"] == {"top": state.waste_top, "size": 4}
    state, event = tap(state, 25)
    assert event == "selected"
    assert tap(state, "waste")[1] == "mismatch"  # the 4 below the top cannot be reached


def test_a_tap_on_an_empty_stock_with_an_empty_waste_does_nothing():
    # Unreachable in play (27 pile cards, only 25 heart cards to pair them with), but defined.
    start = new_game(SEED_DEAL)
    empty = make_state(None, start.dealt, (0, 1 << 25, (), 0, 0, True), 25, (), 0, True, False)
    assert tap(empty, "stock") == (empty, Event.NONE)
    assert tap(empty, "waste") == (empty, Event.NONE)
