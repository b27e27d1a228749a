"""The logs the server would store for simulated players: a solver bot at the rate limit, a
person (policy.Person) thinking before every frame, and a scout who reads the stock by undoing
draws. Every stored move is kept at the instant of the frame that stored it, a pair as two
entries of one time, as game.engine.fairplay.flags_for reads a ranked result's log. bench.flags
measures the plausibility flags on them; tests/engine/test_fairplay.py pins them.
"""

import random
from datetime import UTC, datetime, timedelta

from game import engine
from game.engine.codes import SEED_SPACE
from tests.harness import policy

START = datetime(2026, 1, 1, tzinfo=UTC)
MAX_FRAMES = 5_000  # a person who has not finished by then gives up
# People who notice every mistake they make and miss twice as many pairs with the waste.
UNDOERS = {"overlook": 2 * policy.OVERLOOK_CHANCE, "notice": 1.0, "regret": 1.0}


def stored_by(state: engine.State, kind: str, target) -> tuple[engine.State, list[str]]:
    """One frame applied as the server applies it: the new state and the log entries it stores."""
    if kind == "undo":
        return engine.undo(state), ["undo"]
    after, event = engine.tap(state, target)
    if event == engine.Event.PAIR:
        return after, [str(state.selected), str(target)]
    return after, [str(target)] if event.is_move else []


def bot_game(code: str, *, rate: float, burst: int) -> list[tuple[str, datetime]]:
    """A solver plan's log, each frame at the first instant the token bucket admits it."""
    state, log = engine.new_game(code), []
    for number, target in enumerate(engine.solve(code)):
        at = START + timedelta(seconds=max(0, number + 1 - burst) / rate)
        state, entries = stored_by(state, "tap", target)
        log += [(entry, at) for entry in entries]
    assert state.won
    return log


def person_game(code: str, rng: random.Random, think: tuple[float, float], **chances) -> tuple:
    """A simulated person's log (policy.Person with `chances`), a think time before every frame;
    (log, won)."""
    state, log, at, person = engine.new_game(code), [], START, policy.Person(**chances)
    for _ in range(MAX_FRAMES):
        if state.won or state.deadlocked:
            break
        at += timedelta(seconds=rng.uniform(*think))
        state, entries = stored_by(state, *person.next_action(engine.public_view(state), rng))
        log += [(entry, at) for entry in entries]
    return log, state.won


def scout_game(code: str, rng: random.Random, think: tuple[float, float]) -> list:
    """A scout's log: every stock card drawn and every draw undone (the stock's order is now
    known), then the solver's plan; a person's think time before every frame."""
    stock = engine.new_game(code).stock
    frames = [("tap", "stock")] * len(stock) + [("undo", None)] * len(stock)
    state, log, at = engine.new_game(code), [], START
    for kind, target in frames + [("tap", target) for target in engine.solve(code)]:
        at += timedelta(seconds=rng.uniform(*think))
        state, entries = stored_by(state, kind, target)
        log += [(entry, at) for entry in entries]
    assert state.won
    return log


def winnable_codes(rng: random.Random):
    """Normal codes of seeds drawn from `rng` that the solver wins, so a run can be repeated."""
    while True:
        code = engine.format_code("N", rng.randrange(SEED_SPACE))
        if engine.solve(code):
            yield code
