"""Par: min_moves is the fewest moves that win, proven by its plan, by breadth-first search on
small deals and by random play that never beats it."""

import random
from collections import deque

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.engine import (
    format_code,
    min_moves,
    min_moves_plan,
    new_game,
    possible_pairs,
    replay,
    solve,
    tap,
)
from game.engine.state import PILE, REMOVED, TURNED

from .pictures import STUCK_DEAL

CODES = [format_code("N", seed) for seed in range(7, 26**7, 26**7 // 60)]
# Row-neighbour pairs of the heart (never one above the other) and the three odd positions.
PAIRED_SLOTS = [(1, 2), (3, 4), (5, 6), (7, 8), (9, 10), (11, 12), (13, 14), (16, 17), (18, 19),
                (20, 21), (23, 24), (15,), (22,), (25,)]  # fmt: skip
BFS_NODE_CAP = 40_000


def small_deal(rng, swaps):
    """A deal whose heart is mostly row-neighbour pairs, `swaps` random exchanges away: its
    par is short enough for a breadth-first search to reach."""
    ranks = list(range(1, 14))
    rng.shuffle(ranks)
    heart = [0] * 26
    for slot, rank in zip(PAIRED_SLOTS, ranks + ranks[:1], strict=True):
        for p in slot:
            heart[p] = rank
    heart = heart[1:]
    for _ in range(swaps):
        i, j = rng.randrange(25), rng.randrange(25)
        heart[i], heart[j] = heart[j], heart[i]
    pile = [rank for rank in range(1, 14) for _ in range(4)]
    for rank in heart:
        pile.remove(rank)
    rng.shuffle(pile)
    return tuple(heart + pile)


def breadth_first_par(deal, cap=BFS_NODE_CAP):
    """The fewest moves by plain breadth-first search over the engine's own states (every
    draw, redeal and pair one edge); None if no state wins; OverflowError past `cap` states."""
    start = new_game(deal)
    seen = {(start.pos[REMOVED], start.pos[PILE], start.pos[TURNED])}
    frontier = deque([(start, 0)])
    while frontier:
        state, depth = frontier.popleft()
        if state.won:
            return depth
        after = [tap(state, "stock")[0]]
        after += [tap(tap(state, a)[0], b)[0] for a, b in possible_pairs(state)]
        for child in after:
            key = (child.pos[REMOVED], child.pos[PILE], child.pos[TURNED])
            if key not in seen:
                seen.add(key)
                if len(seen) > cap:
                    raise OverflowError(deal)
                frontier.append((child, depth + 1))
    return None


def test_every_par_comes_with_a_plan_that_wins_in_exactly_that_many_moves():
    winnable = [code for code in CODES if solve(code) is not None]
    assert len(winnable) >= 10
    for code in winnable:
        plan = min_moves_plan(code)
        state = replay(code, plan)
        assert state.won and state.moves == min_moves(code), code


def test_par_agrees_with_breadth_first_search_on_small_deals():
    rng, compared = random.Random(12), 0
    for swaps in [0] * 6 + [2] * 10 + [3] * 10:
        deal = small_deal(rng, swaps)
        try:
            expected = breadth_first_par(deal)
        except OverflowError:
            continue
        assert min_moves(deal) == expected, deal
        compared += expected is not None
    assert compared >= 12


def test_a_deal_that_cannot_be_won_has_no_par():
    assert min_moves(STUCK_DEAL) is None and min_moves_plan(STUCK_DEAL) is None
    lost = [code for code in CODES[:30] if solve(code) is None]
    assert lost and all(min_moves(code) is None for code in lost)


def test_par_counts_draws_so_the_pile_order_changes_it():
    deal = small_deal(random.Random(5), 0)
    heart, pile = deal[:25], deal[25:]
    pars = {min_moves(heart + pile[i:] + pile[:i]) for i in range(0, 27, 9)}
    assert None not in pars and len(pars) > 1


def random_win(deal, rng, limit=1500):
    """Random play (a pair seven times in ten when one exists, else the stock) to its end."""
    state = new_game(deal)
    while not state.won and not state.deadlocked and state.moves < limit:
        pairs = possible_pairs(state)
        if pairs and rng.random() < 0.7:
            first, second = rng.choice(pairs)
            state = tap(tap(state, first)[0], second)[0]
        else:
            state = tap(state, "stock")[0]
    return state


winnable_codes = st.builds(format_code, st.just("N"), st.integers(0, 26**7 - 1)).filter(
    lambda code: solve(code) is not None
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(st.one_of(winnable_codes, st.builds(small_deal, st.randoms(), st.integers(0, 3))),
       st.randoms(use_true_random=False))  # fmt: skip
def test_no_random_winning_game_is_shorter_than_par(deal, rng):
    par = min_moves(deal)
    for _ in range(8):
        state = random_win(deal, rng)
        if state.won:
            assert state.moves >= par
