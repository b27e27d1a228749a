"""Deal codes with the properties a browser test needs, found with the engine (a test tool)."""

import random
import string

from game import engine

# The live server of these tests deals with this key (tests/e2e/conftest.py sets it).
DEAL_KEY = "heart-to-heart-e2e-deal-key"


def codes(seed: int, kind: str = "N"):
    """Deterministic deal codes, so a test picks the same deal every run."""
    rng = random.Random(seed)
    while True:
        yield f"HH1-{kind}-" + "".join(rng.choice(string.ascii_uppercase) for _ in range(7))


def new_game(code: str) -> engine.State:
    return engine.new_game(code, key=DEAL_KEY)


def code_where(predicate, seed: int = 1) -> str:
    """The first code whose new game satisfies `predicate(state)`."""
    return next(code for code in codes(seed) if predicate(new_game(code)))


def playable(state: engine.State) -> bool:
    """Not deadlocked from the start (a deal can be: the tip's partners all lie under it)."""
    return not state.deadlocked


def tip_matches_waste(state: engine.State) -> bool:
    """The tip pairs with the waste, and the first draw brings a card that pairs with nothing."""
    drawn, _ = engine.tap(state, "stock")
    return state.heart[24] == state.waste_top and not engine.possible_pairs(drawn)


def tip_mismatches_waste(state: engine.State) -> bool:
    return playable(state) and state.heart[24] != state.waste_top


def winnable_plan(seed: int = 2, longest: int = 200) -> tuple[str, list]:
    """A winnable code and the solver's plan to win it, no longer than `longest` taps."""
    for code in codes(seed):
        plan = engine.solve(code, key=DEAL_KEY)
        if plan is not None and len(plan) <= longest:
            return code, plan
    raise AssertionError("unreachable")


def plan_clearing(code: str, plan: list, cards: int) -> list:
    """The start of `plan` that clears `cards` of the heart's cards (a solver's plan may open
    with any number of draws, so a fixed number of taps may clear nothing)."""
    state = new_game(code)
    for taps, target in enumerate(plan, start=1):
        state, _ = engine.tap(state, target)
        if state.removed.bit_count() >= cards:
            return plan[:taps]
    raise AssertionError(f"{plan} clears fewer than {cards} cards")


def _greedy_playout(code: str, rng: random.Random, limit: int) -> list | None:
    """Random play: a possible pair when there is one, else a draw; the taps to a deadlock."""
    state, taps = new_game(code), []
    while len(taps) < limit and not state.won:
        pairs = engine.possible_pairs(state)
        step = list(rng.choice(pairs)) if pairs else ["stock"]
        for target in step:
            state, _ = engine.tap(state, target)
        taps += step
        if state.deadlocked:
            return taps if state.can_undo else None
    return None


def deadlock_path(seed: int = 3, limit: int = 40) -> tuple[str, list]:
    """A code and at most `limit` taps that end in a deadlock that can be undone."""
    rng = random.Random(seed)
    for code in codes(seed):
        for _ in range(20):
            taps = _greedy_playout(code, rng, limit)
            if taps:
                return code, taps
    raise AssertionError("unreachable")
