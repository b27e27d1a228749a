"""The quick race's matching rules alone, simulated without a server:

    python -m bench.matchmaking_model [--hours 3] [--per-minute 20] [--seed 1]

Arrivals as bench.matchmaking's (Poisson, Race ratings from N(1500, 300)) meet
game.domain.quick_match's rules in rounds of one second, as the servers run them: rooms
count down 10 s from their second racer (3 s once full), and take newcomers until 2 s before
their start. No sockets, no database: what the rules themselves cost in waiting and in rating
gap, over hours of arrivals in a second. bench.matchmaking measures the site.
"""

import argparse
import json
import random
import statistics
from dataclasses import dataclass, field

from bench.matchmaking import MEAN, SPREAD, percentile
from game.domain.quick_match import MAX_RACERS, Opening, Waiter, quick_matches

COUNTDOWN_S, FULL_COUNTDOWN_S, JOIN_MARGIN_S, ROUND_S = 10, 3, 2, 1


@dataclass
class Room:
    starts: float
    came: list[float] = field(default_factory=list)  # each racer's arrival
    ratings: list[float] = field(default_factory=list)
    matched_after: list[float] = field(default_factory=list)

    def enter(self, came: float, rating: float, now: float) -> None:
        self.came.append(came)
        self.ratings.append(rating)
        self.matched_after.append(now - came)
        if len(self.ratings) == MAX_RACERS:
            self.starts = min(self.starts, now + FULL_COUNTDOWN_S)


def simulate(hours: float, per_minute: float, rng: random.Random) -> list[Room]:
    arrivals, now, come = _arrivals(hours, per_minute, rng), 0.0, 0
    waiting: dict[int, tuple[float, float]] = {}  # arrival number -> (came, rating)
    rooms: list[Room] = []
    while now < hours * 3600:
        while come < len(arrivals) and arrivals[come][0] <= now:
            waiting[come], come = arrivals[come], come + 1
        _round(now, waiting, rooms)
        now += ROUND_S
    return rooms


def _round(now: float, waiting: dict, rooms: list[Room]) -> None:
    seats = [
        Opening(i, list(r.ratings), MAX_RACERS - len(r.ratings))
        for i, r in enumerate(rooms)
        if r.starts > now + JOIN_MARGIN_S and len(r.ratings) < MAX_RACERS
    ]
    found = quick_matches([Waiter(n, r, now - c) for n, (c, r) in waiting.items()], seats)
    for key, room in found.joins:
        rooms[room].enter(*waiting.pop(key), now)
    for group in found.groups:
        room = Room(starts=now + COUNTDOWN_S)
        for key in group:
            room.enter(*waiting.pop(key), now)
        rooms.append(room)


def _arrivals(hours: float, per_minute: float, rng: random.Random) -> list[tuple[float, float]]:
    """(arrival second, Race rating) of each player, in order."""
    arrivals, at = [], 0.0
    while at < hours * 3600:
        at += rng.expovariate(per_minute / 60)
        arrivals.append((at, rng.gauss(MEAN, SPREAD)))
    return arrivals


def summary(rooms: list[Room]) -> dict:
    matched = [s for room in rooms for s in room.matched_after]
    started = [room.starts - came for room in rooms for came in room.came]
    gaps = [max(room.ratings) - min(room.ratings) for room in rooms]
    return {
        "match_s": {
            "median": round(statistics.median(matched), 1),
            "p95": round(percentile(matched, 0.95), 1),
        },
        "start_s": {
            "median": round(statistics.median(started), 1),
            "p95": round(percentile(started, 0.95), 1),
        },
        "gap_median": round(statistics.median(gaps)),
        "rooms": len(rooms),
        "room_size_mean": round(statistics.mean(len(room.ratings) for room in rooms), 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hours", type=float, default=3)
    parser.add_argument("--per-minute", type=float, default=20)
    parser.add_argument("--seed", type=int, default=1)
    arguments = parser.parse_args()
    rooms = simulate(arguments.hours, arguments.per_minute, random.Random(arguments.seed))
    print(json.dumps(summary(rooms)))


if __name__ == "__main__":
    main()
