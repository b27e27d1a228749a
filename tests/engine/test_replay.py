"""Replay: a game is its code plus its actions; replay rebuilds the exact state."""

import pytest

from game.engine import (
    Event,
    ParseError,
    RuleError,
    new_game,
    parse_action,
    replay,
    step,
    tap,
    undo,
)

from .pictures import SEED_DEAL


def test_replay_of_no_actions_is_the_new_game():
    assert replay("hh1-n-aaaaaam", []) == new_game("HH1-N-AAAAAAM")


def test_replay_rebuilds_the_state_tap_by_tap():
    log = ["stock", "stock", 25, "waste", 23, 24, "undo", "help-off", 23, "24", "help-on"]
    state = new_game(SEED_DEAL)
    for action in log:
        if action == "undo":
            state = undo(state)
        elif action.startswith("help") if isinstance(action, str) else False:
            from game.engine import set_placement_help

            state = set_placement_help(state, action == "help-on")
        else:
            state = tap(state, action)[0]
    assert replay(SEED_DEAL, log) == state
    assert state.score == 30 and state.undos == 1


def test_a_pair_is_stored_as_two_taps():
    state = replay(SEED_DEAL, ["stock", "stock", "25", "waste"])
    assert state.score == 10 and state.moves == 3


def test_replay_uses_the_given_deal_key():
    log = ["stock", "stock"]
    assert (
        replay("HH1-N-AAAAAAM", log, key="k").stock == new_game("HH1-N-AAAAAAM", key="k").stock[2:]
    )


@pytest.mark.parametrize("bad", [0, 26, "26", "Stock", "redo", True, 3.0, None, ["stock"]])
def test_a_bad_action_is_a_parse_error_naming_its_index(bad):
    with pytest.raises(ParseError, match="action 1"):
        replay(SEED_DEAL, ["stock", bad])


def test_an_undo_the_rules_refuse_is_a_rule_error():
    with pytest.raises(RuleError):
        replay(SEED_DEAL, ["undo"])


def test_parse_action_accepts_every_logged_form():
    logged = (1, "25", "stock", "waste", "undo", "help-on", "help-off")
    assert [parse_action(a) for a in logged] == [1, 25, *logged[2:]]
    with pytest.raises(ParseError):
        parse_action(False)


def test_each_step_reaches_the_replay_of_the_log_so_far_and_says_what_it_did():
    log = ["stock", "stock", 25, "waste", "23", "undo", "help-off", 25, "23", 25, "help-on", 1]
    state, events = new_game(SEED_DEAL), []
    for n, action in enumerate(log, start=1):
        state, event = step(state, action)
        events.append(event)
        assert state == replay(SEED_DEAL, log[:n])
    assert events == [
        Event.DRAW, Event.DRAW, Event.SELECTED, Event.PAIR, Event.SELECTED, "undo", "settings",
        Event.SELECTED, Event.NONE, Event.DESELECTED, "settings", Event.NONE,
    ]  # fmt: skip


@pytest.mark.parametrize("bad", [0, 26, "26", "Stock", "redo", True, 3.0, None, ["stock"]])
def test_a_step_refuses_a_bad_entry_and_loses_nothing(bad):
    start = new_game(SEED_DEAL)
    with pytest.raises(ParseError, match="not an action"):
        step(start, bad)
    assert start == new_game(SEED_DEAL)


def test_a_step_that_undoes_nothing_is_a_rule_error():
    with pytest.raises(RuleError):
        step(new_game(SEED_DEAL), "undo")
