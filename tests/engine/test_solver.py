"""The solver: a plan for every winnable deal, None otherwise; checked against brute force."""

import random
from functools import cache

from game.engine import deal_for_code, format_code, new_game, replay, solve
from game.engine.geometry import ALL_POSITIONS_MASK, free_mask, iter_bits

from .pictures import STUCK_DEAL

CODES = [format_code("N", seed) for seed in range(0, 26**7, 26**7 // 400)]


def brute_force_winnable(deal):
    """Every removal order, tracking the pile's copies of each rank explicitly (no shortcuts)."""
    heart = (0,) + tuple(deal[:25])
    start_pile = tuple(deal[25:].count(rank) for rank in range(14))

    @cache
    def win(removed, pile):
        if removed == ALL_POSITIONS_MASK:
            return True
        free = list(iter_bits(free_mask(removed)))
        for i, p in enumerate(free):
            for q in free[i + 1 :]:
                if heart[p] == heart[q] and win(removed | 1 << p | 1 << q, pile):
                    return True
            if pile[heart[p]]:
                rest = pile[: heart[p]] + (pile[heart[p]] - 1,) + pile[heart[p] + 1 :]
                if win(removed | 1 << p, rest):
                    return True
        return False

    return win(0, start_pile)


def test_every_solver_plan_replays_to_a_win():
    plans = [(code, solve(code)) for code in CODES]
    assert any(plan for _code, plan in plans) and any(plan is None for _code, plan in plans)
    for code, plan in plans:
        if plan is not None:
            assert replay(code, plan).won, code


def test_the_solver_agrees_with_brute_force():
    for code in CODES[:150]:
        deal = deal_for_code(code)
        assert (solve(deal) is not None) == brute_force_winnable(deal), code


def test_the_solver_finds_no_plan_for_a_deal_stuck_from_the_start():
    assert new_game(STUCK_DEAL).deadlocked and solve(STUCK_DEAL) is None


def test_winnability_depends_only_on_the_heart_and_the_pile_multiset():
    shuffle = random.Random(7).shuffle
    for code in CODES[:100]:
        deal = list(deal_for_code(code))
        pile = deal[25:]
        shuffle(pile)
        other = deal[:25] + pile
        plan = solve(other)
        assert (plan is None) == (solve(deal) is None)
        assert plan is None or replay(other, plan).won


def test_a_plan_uses_only_loggable_actions():
    plan = solve("HH1-N-HEARTSS")
    assert plan and all(a in ("stock", "waste") or a in range(1, 26) for a in plan)
