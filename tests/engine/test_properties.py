"""Properties over random deals and random play (hypothesis)."""

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from game.engine import (
    Event,
    deal_for_code,
    format_code,
    new_game,
    playable_targets,
    possible_pairs,
    public_view,
    replay,
    solve,
    tap,
    undo,
)
from game.engine.state import PILE

codes = st.builds(format_code, st.sampled_from("ND"), st.integers(0, 26**7 - 1))
choices = st.lists(st.integers(0, 2**16), max_size=150)
UNDO_ONE_IN = 20  # about 5 % of the steps undo


def walk(start, picks):
    """Random play: each pick undoes (when it can) or taps one of the playable targets.

    Yields (before, action, after, event) with action a log entry as replay takes it.
    """
    state = start
    for pick in picks:
        targets = playable_targets(state)
        pairs = possible_pairs(state)
        if not targets:
            return
        if pick % UNDO_ONE_IN == 0 and state.can_undo:
            yield state, "undo", undo(state), None
            state = undo(state)
            continue
        # Taps drawn uniformly rarely meet a partner, so half the time play a pair outright.
        chosen = pairs[pick % len(pairs)] if pairs and pick % 2 else [targets[pick % len(targets)]]
        for target in chosen:
            action = str(target) if pick % 3 == 0 and isinstance(target, int) else target
            after, event = tap(state, action)
            yield state, action, after, event
            state = after


def present(state):
    heart = [state.rank_at(p) for p in range(1, 26) if state.rank_at(p) is not None]
    return Counter(heart) + Counter(state.stock) + Counter(state.waste)


@settings(max_examples=150, deadline=None)
@given(codes, choices)
def test_cards_are_conserved_across_heart_stock_waste_and_removed(code, picks):
    deal = Counter(deal_for_code(code))
    pairs = 0
    for _before, action, after, event in walk(new_game(code), picks):
        pairs += 1 if event == Event.PAIR else 0
        pairs -= 1 if action == "undo" and _undid_a_pair(_before, after) else 0
        cards = present(after)
        assert not cards - deal  # nothing appears from nowhere
        assert cards.total() == 52 - 2 * pairs
        assert all((deal[rank] - cards[rank]) % 2 == 0 for rank in deal)  # pairs share a rank


def _undid_a_pair(before, after):
    return after.removed != before.removed or len(after.pos[PILE]) != len(before.pos[PILE])


@settings(max_examples=150, deadline=None)
@given(codes, choices)
def test_score_is_ten_per_heart_card_removed(code, picks):
    for _before, _action, after, _event in walk(new_game(code), picks):
        view = public_view(after)
        assert after.score == view["score"] == 10 * view["heart"].count(None)
        assert after.score == 10 * (25 - after.heart_left)
        if after.won:
            assert after.score == 250


@settings(max_examples=150, deadline=None)
@given(codes, choices)
def test_undo_after_any_move_returns_the_state_before_it(code, picks):
    for before, _action, after, event in walk(new_game(code), picks):
        if event is not None and event.is_move and not after.won:
            back = undo(after)
            assert back.pos == before.pos and back.selected is None
            assert back.history == before.history[len(before.history) == 100 :]
            assert public_view(back) | {"undos": 0, "selected": None} == public_view(before) | {
                "undos": 0, "selected": None, "can_undo": back.can_undo}  # fmt: skip


@settings(max_examples=150, deadline=None)
@given(codes, choices)
def test_deadlocked_exactly_when_no_pair_is_possible(code, picks):
    for _before, _action, after, _event in walk(new_game(code), picks):
        free = [after.rank_at(p) for p in range(1, 26) if after.free >> p & 1]
        pile = set(after.stock) | set(after.waste)
        possible = len(set(free)) < len(free) or any(rank in pile for rank in free)
        assert after.deadlocked == (not possible and not after.won)


@settings(max_examples=150, deadline=None)
@given(codes, choices)
def test_replay_of_the_log_equals_the_state_reached_tap_by_tap(code, picks):
    state, log = new_game(code), []
    for _before, action, after, _event in walk(state, picks):
        log.append(action)
        state = after
    assert replay(code, log) == state


@settings(max_examples=150, deadline=None)
@given(codes, choices, st.randoms(use_true_random=False))
def test_the_view_is_the_same_for_deals_differing_only_in_the_hidden_stock_order(code, picks, rnd):
    deal = list(deal_for_code(code))
    steps = list(walk(new_game(deal), picks))
    redealt = any(event == Event.REDEAL for *_rest, event in steps)
    # Cards never turned: the bottom of the stock below the deepest draw (undo hides no card).
    seen = min((len(after.stock) for _b, _a, after, _e in steps), default=26)
    hidden = 0 if redealt else seen
    other = deal[:]
    tail = other[51 - hidden : 51]
    rnd.shuffle(tail)
    other[51 - hidden : 51] = tail
    state_a, state_b = new_game(deal), new_game(other)
    for _before, action, _after, _event in steps:
        step = undo if action == "undo" else (lambda s, a=action: tap(s, a)[0])
        state_a, state_b = step(state_a), step(state_b)
        assert public_view(state_a) == public_view(state_b)


@settings(max_examples=40, deadline=None)
@given(codes)
def test_every_solver_plan_replays_to_a_win(code):
    plan = solve(code)
    if plan is not None:
        won = replay(code, plan)
        assert won.won and won.score == 250 and not won.can_undo


@settings(max_examples=100, deadline=None)
@given(codes, st.lists(st.tuples(st.integers(0, 10**6), st.sampled_from(["draw", "help", "tap"]))))
def test_a_won_game_scores_250_and_is_over_however_it_was_played(code, detours):
    plan = solve(code)
    if plan is None:
        return
    # Detours that leave the board as it was (a draw taken back, the help toggled, the tip
    # selected and deselected), inserted where no card is selected.
    state, calm = new_game(code), []
    for index, action in enumerate(plan):
        calm += [index] if state.selected is None else []
        state = tap(state, action)[0]
    extra = {"draw": ["stock", "undo"], "help": ["help-off", "help-on"], "tap": [25, 25]}
    log = list(plan)
    for at, kind in sorted(((calm[at % len(calm)], kind) for at, kind in detours), reverse=True):
        log[at:at] = extra[kind]
    won = replay(code, log)
    assert won.won and won.score == 250 and won.heart_left == 0 and not won.deadlocked
    assert not won.can_undo and playable_targets(won) == []
    assert all(tap(won, target) == (won, Event.NONE) for target in ["stock", "waste", 25, 1])
