"""Engine speed on one core: `python -m bench.engine [--codes N] [--seed S]` prints one JSON object.

taps_per_s      tap()/undo() calls on states and targets recorded from random play (each tap
                uniform among the targets that can change something, undo 5 % of the time)
play_taps_per_s the same random play end to end, choosing each target included
views_per_s     public_view() turned into JSON text
replay_300_us   replay() of a 300-action log (deal cached, as a server replays known codes);
                replay_300_cold_us with the deal computed afresh
solver_*_ms     solve(code) over --codes fresh codes, deal included, in this thread's CPU time;
                winnable_fraction of them
min_moves_*_ms  min_moves(code) (par, an exact A*) over --par-deals winnable codes, CPU time
memory_1000_games_mb  1,000 games of 300 random actions held at once (tracemalloc)
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import statistics
import time
import tracemalloc
from typing import Any

from game.engine import (
    State,
    format_code,
    min_moves,
    new_game,
    playable_targets,
    public_view,
    replay,
    solve,
    tap,
    undo,
)
from game.engine.codes import SEED_SPACE, shuffled_deal

UNDO_SHARE = 0.05
GAME_LENGTH = 300


def random_game(
    code: str, rng: random.Random, length: int = GAME_LENGTH
) -> list[tuple[State, Any]]:
    """(state, action) pairs of one random game; action is a target or "undo"."""
    state, steps = new_game(code), []
    for _ in range(length):
        targets = playable_targets(state)
        if not targets:
            break
        action = "undo" if state.can_undo and rng.random() < UNDO_SHARE else rng.choice(targets)
        steps.append((state, action))
        state = undo(state) if action == "undo" else tap(state, action)[0]
    return steps


def codes(count: int, rng: random.Random) -> list[str]:
    return [format_code(rng.choice("ND"), rng.randrange(SEED_SPACE)) for _ in range(count)]


def bench_taps(steps: list[tuple[State, Any]]) -> float:
    taps = [(s, a) for s, a in steps if a != "undo"]
    undos = [s for s, a in steps if a == "undo"]
    best = float("inf")
    for _ in range(5):
        start = time.perf_counter()
        for state, target in taps:
            tap(state, target)
        for state in undos:
            undo(state)
        best = min(best, time.perf_counter() - start)
    return len(steps) / best


def bench_play(game_codes: list[str], seed: int) -> float:
    rng = random.Random(seed)
    start = time.perf_counter()
    count = sum(len(random_game(code, rng)) for code in game_codes)
    return count / (time.perf_counter() - start)


def bench_views(states: list[State]) -> float:
    best = float("inf")
    for _ in range(5):
        start = time.perf_counter()
        for state in states:
            json.dumps(public_view(state))
        best = min(best, time.perf_counter() - start)
    return len(states) / best


def bench_replay(code: str, log: list[Any], cold: bool) -> float:
    runs = []
    for _ in range(200):
        if cold:
            shuffled_deal.cache_clear()
        start = time.perf_counter()
        replay(code, log)
        runs.append(time.perf_counter() - start)
    return statistics.median(runs) * 1e6


def long_log(rng: random.Random) -> tuple[str, list[Any]]:
    """A 300-action log (taps and undos) from random play that lasts that long."""
    while True:
        code = codes(1, rng)[0]
        steps = random_game(code, rng)
        if len(steps) == GAME_LENGTH:
            return code, [a if a == "undo" or isinstance(a, str) else str(a) for _s, a in steps]


def bench_solver(game_codes: list[str]) -> dict[str, float]:
    gc.collect()  # the states the other benches left behind would make collections slow
    times, won = [], 0
    for code in game_codes:
        # CPU time of this thread: on a shared machine wall time adds other processes' turns.
        start = time.thread_time()
        plan = solve(code)
        times.append(time.thread_time() - start)
        won += plan is not None
    times.sort()
    return {
        "solver_median_ms": round(statistics.median(times) * 1e3, 3),
        "solver_p99_ms": round(times[min(len(times) - 1, int(len(times) * 0.99))] * 1e3, 3),
        "solver_max_ms": round(times[-1] * 1e3, 3),
        "winnable_fraction": round(won / len(game_codes), 4),
    }


def bench_min_moves(game_codes: list[str], deals: int) -> dict[str, float]:
    """Par's CPU time on the first `deals` winnable codes (an unwinnable one costs a solve)."""
    gc.collect()
    times = []
    for code in (code for code in game_codes if solve(code) is not None):
        start = time.thread_time()
        min_moves(code)
        times.append(time.thread_time() - start)
        if len(times) == deals:
            break
    times.sort()
    return {
        "min_moves_median_ms": round(statistics.median(times) * 1e3, 1),
        "min_moves_p99_ms": round(times[min(len(times) - 1, int(len(times) * 0.99))] * 1e3, 1),
        "min_moves_max_ms": round(times[-1] * 1e3, 1),
        "min_moves_deals": len(times),
    }


def bench_memory(rng: random.Random, games: int = 1000) -> float:
    game_codes = codes(games, rng)
    tracemalloc.start()
    held = []
    for code in game_codes:
        steps = random_game(code, rng)
        held.append(steps[-1][0] if steps else new_game(code))
    current, _peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return current / 2**20


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--codes", type=int, default=10_000, help="codes for the solver")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--par-deals", type=int, default=200, help="winnable codes for par")
    parser.add_argument("--only-par", action="store_true", help="run the par figures alone")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    if args.only_par:
        print(json.dumps(bench_min_moves(codes(20 * args.par_deals, rng), args.par_deals)))
        return
    result = play_benches(rng, args.seed)
    result |= bench_solver(codes(args.codes, rng))
    result |= bench_min_moves(codes(20 * args.par_deals, rng), args.par_deals)
    result |= {"memory_1000_games_mb": round(bench_memory(rng), 1), "codes": args.codes}
    print(json.dumps(result))


def play_benches(rng: random.Random, seed: int) -> dict[str, float]:
    steps = [step for code in codes(200, rng) for step in random_game(code, rng)]
    code, log = long_log(rng)
    return {
        "taps_per_s": round(bench_taps(steps)),
        "play_taps_per_s": round(bench_play(codes(100, rng), seed)),
        "views_per_s": round(bench_views([s for s, _a in steps[:20_000]])),
        "replay_300_us": round(bench_replay(code, log, cold=False), 1),
        "replay_300_cold_us": round(bench_replay(code, log, cold=True), 1),
    }


if __name__ == "__main__":
    main()
