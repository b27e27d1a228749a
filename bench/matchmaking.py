"""The quick race's matchmaking, measured over the real socket:

    python -m bench.matchmaking [--arrivals 300] [--per-minute 20] [--speed 5] [--seed 1] \\
        [--database-url postgres://postgres@127.0.0.1:5432/h2h_bench] \\
        [--redis-url redis://127.0.0.1:6379/9] [--record bench/results/matchmaking.jsonl]

One production-like daphne (tests/harness/server.py) over a fresh database: a SQLite file of
its own, or the PostgreSQL database --database-url names (dropped and created again), with
Redis's channel layer if --redis-url is given. --arrivals players, each with a Race rating
drawn from N(1500, 300), arrive as a Poisson process of --per-minute a minute; each opens
/ws/race/quick/ as the page does, waits for its `matched` frame, then follows its room on
/ws/race/<ROOM>/ until the room frame that shows the race started with its game.

The quick race's own clock runs --speed times faster than the wall clock
(H2H_QUICK_RACE_SPEED: its windows, countdown, ghost offer and rounds), and the arrivals come
--speed times faster too, so 300 arrivals at 20 a minute (15 minutes of the quick race's
clock) take 3 minutes at 5. Every time printed is on the quick race's clock: a wall-clock time
times --speed. The sockets' own latency is multiplied as well, so the figures err long.

It prints one JSON object: the seconds from arrival to the `matched` frame and to the race's
start, each as median and 95th percentile; the median rating gap within a race (its highest
rating minus its lowest), the rooms and their mean size, and anyone never matched.
"""

import argparse
import asyncio
import contextlib
import json
import random
import statistics
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import websockets

from tests.harness.server import Server, fresh_database, make_players, manage, server_env

MEAN, SPREAD = 1500, 300  # the arrivals' Race ratings: N(MEAN, SPREAD)
GIVE_UP_S = 120  # of the quick race's clock: an arrival never matched by then is counted so


@dataclass
class Arrival:
    name: str
    sessionid: str
    rating: float
    room: str | None = None
    matched_s: float | None = None
    started_s: float | None = None


def rate_players(env: dict, ratings: dict[str, float]) -> None:
    """Give each player their Race rating (a settled one: RD 60)."""
    script = (
        "import json; from django.utils import timezone; "
        "from django.contrib.auth import get_user_model; from game.models import Rating; "
        f"ratings = json.loads({json.dumps(json.dumps(ratings))}); "
        "users = get_user_model().objects.in_bulk(ratings, field_name='username'); "
        "Rating.objects.bulk_create([Rating(player=users[name], kind='race', rating=r, "
        "deviation=60, volatility=0.06, games=10, rated_at=timezone.now()) "
        "for name, r in ratings.items()])"
    )
    manage(env, "shell", "-c", script)


async def arrive(server: Server, arrival: Arrival, speed: float) -> None:
    """One player: queued, matched, and following their room until its race starts."""
    headers = {"Cookie": f"sessionid={arrival.sessionid}"}
    came = time.monotonic()
    async with websockets.connect(
        server.ws_url("/ws/race/quick/"), origin=server.origin, additional_headers=headers
    ) as queue:
        matched = await _frame(queue, lambda f: f["type"] == "matched", GIVE_UP_S / speed)
    arrival.room, arrival.matched_s = matched["room"], (time.monotonic() - came) * speed
    async with websockets.connect(
        server.ws_url(f"/ws/race/{arrival.room}/"), origin=server.origin, additional_headers=headers
    ) as room:
        await _frame(room, lambda f: f["type"] == "room" and _mine_began(f), GIVE_UP_S / speed)
    arrival.started_s = (time.monotonic() - came) * speed


def _mine_began(room: dict) -> bool:
    mine = [entry for entry in room["entries"] if entry["player"] == room["me"]]
    return room["started"] and bool(mine) and bool(mine[0]["game"])


async def _frame(ws, wanted, timeout: float) -> dict:
    async with asyncio.timeout(timeout):
        while True:
            frame = json.loads(await ws.recv())
            if wanted(frame):
                return frame


async def arrivals(server: Server, players: list[Arrival], per_minute: float, speed: float, rng):
    """Each player in turn after an exponential pause: a Poisson process, sped up."""
    tasks = []
    for arrival in players:
        await asyncio.sleep(rng.expovariate(per_minute / 60 * speed))
        tasks.append(asyncio.create_task(_arrive_or_not(server, arrival, speed)))
    await asyncio.gather(*tasks)


async def _arrive_or_not(server: Server, arrival: Arrival, speed: float) -> None:
    with contextlib.suppress(TimeoutError):  # never matched, or never started: counted so
        await arrive(server, arrival, speed)


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def summary(players: list[Arrival], arguments: argparse.Namespace) -> dict:
    matched = [p.matched_s for p in players if p.matched_s is not None]
    started = [p.started_s for p in players if p.started_s is not None]
    rooms: dict[str, list[float]] = {}
    for player in players:
        if player.room:
            rooms.setdefault(player.room, []).append(player.rating)
    gaps = [max(ratings) - min(ratings) for ratings in rooms.values()]
    return {
        "arrivals": len(players),
        "per_minute": arguments.per_minute,
        "speed": arguments.speed,
        "database": "postgresql" if arguments.database_url else "sqlite",
        "match_s": {"median": _s(statistics.median(matched)), "p95": _s(percentile(matched, 0.95))},
        "start_s": {"median": _s(statistics.median(started)), "p95": _s(percentile(started, 0.95))},
        "gap_median": round(statistics.median(gaps)),
        "rooms": len(rooms),
        "room_size_mean": round(statistics.mean(len(r) for r in rooms.values()), 2),
        "never_matched": len(players) - len(matched),
        "never_started": len(players) - len(started),
    }


def _s(seconds: float) -> float:
    return round(seconds, 1)


def site(arguments: argparse.Namespace, workdir: Path) -> tuple[Server, list[Arrival]]:
    """The daphne, its fresh database, and the players who will arrive."""
    if arguments.database_url:
        fresh_database(arguments.database_url)
    env = server_env(
        sqlite_path=str(workdir / "db.sqlite3"),
        database_url=arguments.database_url,
        redis_url=arguments.redis_url,
        H2H_TAP_RATE="0",
        H2H_QUICK_RACE_SPEED=str(arguments.speed),
    )
    manage(env, "migrate", "--noinput")
    made = make_players(env, arguments.arrivals, prefix="quick")
    rng = random.Random(arguments.seed)
    players = [Arrival(p["name"], p["sessionid"], rng.gauss(MEAN, SPREAD)) for p in made]
    rate_players(env, {player.name: player.rating for player in players})
    return Server(env, log_path=str(workdir / "daphne.log")), players


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--arrivals", type=int, default=300)
    parser.add_argument("--per-minute", type=float, default=20)
    parser.add_argument("--speed", type=float, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--database-url", default="")
    parser.add_argument("--redis-url", default="")
    parser.add_argument("--record", default="", help="a .jsonl file to append the figures to")
    arguments = parser.parse_args()
    server, players = site(arguments, Path(tempfile.mkdtemp(prefix="h2h-matchmaking-")))
    rng = random.Random(arguments.seed + 1)
    with server:
        asyncio.run(arrivals(server, players, arguments.per_minute, arguments.speed, rng))
    figures = summary(players, arguments)
    print(json.dumps(figures))
    if arguments.record:
        with open(arguments.record, "a") as record:
            record.write(json.dumps(figures) + "\n")


if __name__ == "__main__":
    main()
