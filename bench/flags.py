"""Plausibility flags against bots, people and scouts: `python -m bench.flags [--bots 50]
[--people 200] [--undoers 200] [--scouts 50]`.

All play winnable deals (as every daily deal is), and every log is read as a ranked result's. A
bot sends a solver plan (game.engine.solve) as fast as the play socket admits frames: the first
TAP_BURST (20) at once, then TAP_RATE (10) a second (game/sockets/ratelimit.py). A simulated
person (tests/harness/policy.py's Person) picks each tap from the public view: pairs first (the
first one read), then the waste, then the stock, now and then a mismatch; and takes moves back
as people do, for a reason: a pair that another pairing would have beaten, or a draw over a
waste card that paired, noticed at once or up to three moves later (the moves since go back
too). An undoer is such a person who notices every mistake and misses twice as many pairs with
the waste. A scout draws every stock card, undoes every draw, then plays the solver's plan. All
but the bot think 0.6-3 s before every frame, the ones that store nothing included. A deadlocked
person resigns.

Each game leaves the log the server would store: every stored move at the instant of the frame
that stored it, a pair as two entries of one time (tests/harness/player_logs.py). That log goes
through game.engine.fairplay.flags_for, the function the server runs when it stores a result, so no
server is needed. Prints one JSON object: per kind, games, flagged games and per-reason counts,
the largest and smallest share of machine-paced moves and of stock cards peeked at in a game of
the kind (the margin either side of each threshold), and the median numbers of undos and draws.

Measured (seed 1): bots 50 of 50 flagged (fast_taps and fast_pairs); people 0 of 200 (at most
5 cards peeked, a median of 1 undo); undoers 1 of 200, 0.5 % (at most 10 peeked, a median of
6 undos); scouts 50 of 50, for stock_scouted alone (26 peeked each, no machine-paced move).
"""

import argparse
import json
import random
import statistics
import time
from collections import Counter
from datetime import datetime

from game.engine import fairplay
from tests.harness.player_logs import (
    START,
    UNDOERS,
    bot_game,
    person_game,
    scout_game,
    winnable_codes,
)


def tally(logs: list[list[tuple[str, datetime]]]) -> dict:
    """Games, flagged games, per-reason counts and the largest machine-paced share of moves."""
    reasons: Counter[str] = Counter()
    flagged, shares = 0, []
    for log in logs:
        found = fairplay.flags_for(started_at=START, log=log, ranked=True)
        flagged += bool(found)
        reasons.update(flag.reason for flag in found)
        moves = fairplay.timed_moves(started_at=START, log=log)
        shares.append(sum(move.machine_paced for move in moves) / max(1, len(moves)))
    peeked = [fairplay.peeked_cards(log) for log in logs]
    return {
        "games": len(logs),
        "flagged": flagged,
        "flagged_percent": round(100 * flagged / max(1, len(logs)), 1),
        "reasons": dict(reasons),
        "max_machine_paced_share": round(max(shares, default=0), 3),
        "min_machine_paced_share": round(min(shares, default=0), 3),
        "max_peeked_cards": max(peeked, default=0),
        "min_peeked_cards": min(peeked, default=0),
        "median_undos": statistics.median([sum(a == "undo" for a, _ in log) for log in logs]),
        # A solver's line draws more than a person's, not less: "no wasted draw" flags nobody.
        "median_draws": statistics.median([sum(a == "stock" for a, _ in log) for log in logs]),
    }


def flag_cost_us(logs: list) -> float:
    """The median time of one flags_for call, in microseconds."""
    costs = []
    for log in logs:
        began = time.perf_counter()
        fairplay.flags_for(started_at=START, log=log, ranked=True)
        costs.append((time.perf_counter() - began) * 1e6)
    return round(statistics.median(costs), 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bots", type=int, default=50)
    parser.add_argument("--people", type=int, default=200)
    parser.add_argument("--undoers", type=int, default=200)
    parser.add_argument("--scouts", type=int, default=50)
    parser.add_argument("--rate", type=float, default=10.0, help="TAP_RATE, frames a second")
    parser.add_argument("--burst", type=int, default=20, help="TAP_BURST, frames")
    parser.add_argument("--think", type=float, nargs=2, default=(0.6, 3.0), metavar=("MIN", "MAX"))
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    codes = winnable_codes(rng)
    bots = [bot_game(next(codes), rate=args.rate, burst=args.burst) for _ in range(args.bots)]
    people = [person_game(next(codes), rng, tuple(args.think)) for _ in range(args.people)]
    undoers = [
        person_game(next(codes), rng, tuple(args.think), **UNDOERS) for _ in range(args.undoers)
    ]
    scouts = [scout_game(next(codes), rng, tuple(args.think)) for _ in range(args.scouts)]
    report = {
        "thresholds": {
            "machine_tap_s": fairplay.MACHINE_TAP_S,
            "most": fairplay.MOST,
            "scouted_cards": fairplay.SCOUTED_CARDS,
        },
        "bots": tally(bots) | {"rate": args.rate, "burst": args.burst},
        "people": tally([log for log, _ in people])
        | {"won": sum(won for _, won in people), "think_s": list(args.think)},
        "undoers": tally([log for log, _ in undoers])
        | {"won": sum(won for _, won in undoers)}
        | UNDOERS,
        "scouts": tally(scouts) | {"think_s": list(args.think)},
        "flag_call_us": flag_cost_us(bots + [log for log, _ in people + undoers] + scouts),
    }
    print(json.dumps(report))


if __name__ == "__main__":
    main()
