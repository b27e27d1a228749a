"""The public view: everything a player or spectator sees, and nothing about the stock order."""

import json

from game.engine import new_game, public_view, set_placement_help, tap

from .pictures import SEED_DEAL, play

KEYS = {
    "code",
    "heart",
    "stock",
    "waste",
    "selected",
    "hints",
    "score",
    "moves",
    "undos",
    "can_undo",
    "won",
    "deadlocked",
}


def test_the_view_has_exactly_the_keys_design_md_defines():
    assert set(public_view(new_game("HH1-N-AAAAAAM"))) == KEYS


def test_the_view_shows_every_heart_card_and_whether_it_is_free():
    view = public_view(new_game(SEED_DEAL))
    assert view["heart"][0] == {"rank": 13, "free": False}
    assert view["heart"][24] == {"rank": 4, "free": True}
    assert view["code"] is None  # an explicit deal has no code


def test_removed_cards_are_null_in_the_view():
    state, _ = play(new_game(SEED_DEAL), "stock", "stock", 25, "waste")
    view = public_view(state)
    assert view["heart"][24] is None
    assert view["heart"][22:24] == [{"rank": 7, "free": True}] * 2


def test_the_view_shows_the_stock_size_and_the_waste_top_and_size_only():
    state, _ = play(new_game(SEED_DEAL), "stock", "stock", "stock")
    view = public_view(state)
    assert view["stock"] == 23 and view["waste"] == {"top": state.waste_top, "size": 4}


def test_the_view_never_reveals_the_stock_order():
    state = new_game(SEED_DEAL)
    text = json.dumps(public_view(state))
    assert " ".join(map(str, state.stock[:6])) not in text.replace(",", "")
    assert all(
        not isinstance(v, list) or k in ("heart", "hints") for k, v in public_view(state).items()
    )


def test_the_view_is_json_ready():
    state, _ = play(new_game("HH1-N-AAAAAAM"), "stock", 25, "waste")
    view = public_view(state)
    assert json.loads(json.dumps(view)) == view


def test_the_view_carries_the_selection_score_moves_undos_and_flags():
    state, _ = play(new_game(SEED_DEAL), "stock", "stock", 25, "waste", 23)
    view = public_view(state)
    assert (view["selected"], view["score"], view["moves"], view["undos"]) == (23, 10, 3, 0)
    assert (view["can_undo"], view["won"], view["deadlocked"]) == (True, False, False)
    assert public_view(tap(new_game(SEED_DEAL), "waste")[0])["selected"] == "waste"


def test_hints_mark_free_cards_with_a_partner_and_the_waste_when_its_top_pairs():
    state, _ = play(new_game(SEED_DEAL), "stock", "stock")
    assert public_view(state)["hints"] == [25, "waste"]  # the tip's 4 and the waste's 4
    state, _ = play(state, 25, "waste")
    assert public_view(state)["hints"] == [23, 24]  # two free 7s; the waste's 8 pairs nothing


def test_hints_ignore_partners_still_in_the_stock():
    assert public_view(new_game(SEED_DEAL))["hints"] == []


def test_hints_are_empty_while_placement_help_is_off():
    state, _ = play(new_game(SEED_DEAL), "stock", "stock")
    assert public_view(set_placement_help(state, False))["hints"] == []
    assert public_view(set_placement_help(state, True))["hints"] == [25, "waste"]


def test_placement_help_is_on_by_default_and_switching_it_is_not_a_move():
    start = new_game(SEED_DEAL)
    off = set_placement_help(start, False)
    assert start.placement_help and not off.placement_help
    assert off.moves == 0 and not off.can_undo and off.pos == start.pos


def test_help_used_records_a_move_made_while_placement_help_was_on():
    start = new_game(SEED_DEAL)
    assert not start.help_used
    assert not tap(set_placement_help(start, False), "stock")[0].help_used
    assert not tap(start, 25)[0].help_used  # selecting is not a move
    assert tap(start, "stock")[0].help_used


def test_state_heart_lists_ranks_in_position_order_with_none_once_removed():
    state, _ = play(new_game(SEED_DEAL), "stock", "stock", 25, "waste")
    assert len(state.heart) == 25 and state.heart[0] == 13 and state.heart[24] is None
    assert [c and c["rank"] for c in public_view(state)["heart"]] == list(state.heart)
