"""Plausibility flags against bots and people: `python -m bench.flags [--bots 50] [--people 200]`.

Both play winnable deals (as every daily deal is). A bot sends a solver plan
(game.engine.solve) as fast as the play socket admits frames: the first TAP_BURST (20) at once,
then TAP_RATE (10) a second (game/sockets/ratelimit.py). A simulated person picks each tap from the
public view (bench.policy: pairs first, then the waste, then the stock, now and then an undo or
a mismatch) and thinks 0.6-3 s before every frame, the ones that store nothing included. A
deadlocked person resigns.

Each game leaves the log the server would store: every stored move at the instant of the frame
that stored it, a pair as two entries of one time. That log goes through
game.fairplay.flags_for, the function the server runs when it stores a result, so no server
is needed. Prints one JSON object: per kind, games, flagged games and per-reason counts, the
largest and smallest share of machine-paced moves in a game of the kind (the margin either
side), and the median number of draws in a game.
"""

import argparse
import json
import random
import statistics
import time
from collections import Counter
from datetime import UTC, datetime, timedelta

from bench import policy
from game import engine, fairplay
from game.engine.codes import SEED_SPACE

START = datetime(2026, 1, 1, tzinfo=UTC)
MAX_FRAMES = 5_000  # a person who has not finished by then gives up


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


def person_game(code: str, rng: random.Random, think: tuple[float, float]) -> tuple:
    """A simulated person's log, a think time before every frame; (log, won)."""
    state, log, at = engine.new_game(code), [], START
    for _ in range(MAX_FRAMES):
        if state.won or state.deadlocked:
            break
        at += timedelta(seconds=rng.uniform(*think))
        state, entries = stored_by(state, *policy.next_action(engine.public_view(state), rng))
        log += [(entry, at) for entry in entries]
    return log, state.won


def winnable_codes(rng: random.Random):
    """Normal codes of seeds drawn from `rng` that the solver wins, so a run can be repeated."""
    while True:
        code = engine.format_code("N", rng.randrange(SEED_SPACE))
        if engine.solve(code):
            yield code


def tally(logs: list[list[tuple[str, datetime]]]) -> dict:
    """Games, flagged games, per-reason counts and the largest machine-paced share of moves."""
    reasons: Counter[str] = Counter()
    flagged, shares = 0, []
    for log in logs:
        found = fairplay.flags_for(started_at=START, log=log)
        flagged += bool(found)
        reasons.update(flag.reason for flag in found)
        moves = fairplay.timed_moves(started_at=START, log=log)
        shares.append(sum(move.machine_paced for move in moves) / max(1, len(moves)))
    return {
        "games": len(logs),
        "flagged": flagged,
        "flagged_percent": round(100 * flagged / max(1, len(logs)), 1),
        "reasons": dict(reasons),
        "max_machine_paced_share": round(max(shares, default=0), 3),
        "min_machine_paced_share": round(min(shares, default=0), 3),
        # A solver's line draws more than a person's, not less: "no wasted draw" flags nobody.
        "median_draws": statistics.median([sum(a == "stock" for a, _ in log) for log in logs]),
    }


def flag_cost_us(logs: list) -> float:
    """The median time of one flags_for call, in microseconds."""
    costs = []
    for log in logs:
        began = time.perf_counter()
        fairplay.flags_for(started_at=START, log=log)
        costs.append((time.perf_counter() - began) * 1e6)
    return round(statistics.median(costs), 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bots", type=int, default=50)
    parser.add_argument("--people", type=int, default=200)
    parser.add_argument("--rate", type=float, default=10.0, help="TAP_RATE, frames a second")
    parser.add_argument("--burst", type=int, default=20, help="TAP_BURST, frames")
    parser.add_argument("--think", type=float, nargs=2, default=(0.6, 3.0), metavar=("MIN", "MAX"))
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    codes = winnable_codes(rng)
    bots = [bot_game(next(codes), rate=args.rate, burst=args.burst) for _ in range(args.bots)]
    people = [person_game(next(codes), rng, tuple(args.think)) for _ in range(args.people)]
    report = {
        "thresholds": {"machine_tap_s": fairplay.MACHINE_TAP_S, "most": fairplay.MOST},
        "bots": tally(bots) | {"rate": args.rate, "burst": args.burst},
        "people": tally([log for log, _ in people])
        | {"won": sum(won for _, won in people), "think_s": list(args.think)},
        "flag_call_us": flag_cost_us(bots + [log for log, _ in people]),
    }
    print(json.dumps(report))


if __name__ == "__main__":
    main()
