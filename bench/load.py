"""Load benchmark: real games over websockets against the platform's own limit, a bare echo.

    python -m bench.load [--players 200] [--seconds 30] [--profile human|saturation|both]

It starts daphne on 127.0.0.1 with a fresh SQLite file (or PostgreSQL and Redis with
--database-url/--redis-url, and --processes 2), signs up the players, then for each profile
runs the same clients at the same pace first against the echo consumer, then playing games,
and prints one JSON object per profile.
"""

import argparse
import asyncio
import json
import random
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from websockets.asyncio.client import connect

from bench import policy
from bench.server import Server, make_players, manage, server_env
from game.engine import random_code

HUMAN_PAUSE_S = (0.25, 0.75)  # 500 ms ± 50 %


@dataclass
class Tally:
    latencies_ms: list[float] = field(default_factory=list)
    errors: int = 0
    games: int = 0


class Pace:
    def __init__(self, profile: str, rng: random.Random) -> None:
        self.profile, self.rng = profile, rng

    async def pause(self) -> None:
        if self.profile == "human":
            await asyncio.sleep(self.rng.uniform(*HUMAN_PAUSE_S))


async def echo_client(url: str, headers: dict, pace: Pace, until: float, tally: Tally) -> None:
    async with connect(url, additional_headers=headers, max_size=2**20) as socket:
        seq = 0
        while time.monotonic() < until:
            seq += 1
            frame = json.dumps({"type": "tap", "seq": seq, "target": "stock"})
            sent = time.perf_counter()
            await socket.send(frame)
            await socket.recv()
            tally.latencies_ms.append((time.perf_counter() - sent) * 1000)
            await pace.pause()


async def play_client(server: Server, headers: dict, pace: Pace, until: float, tally: Tally):
    rng = pace.rng
    while time.monotonic() < until:
        url = server.ws_url(f"/ws/play/{random_code()}/")
        async with connect(url, additional_headers=headers, max_size=2**20) as socket:
            await play_one_game(socket, rng, pace, until, tally)
        tally.games += 1


async def play_one_game(socket, rng, pace: Pace, until: float, tally: Tally) -> None:
    first = json.loads(await socket.recv())
    view, seq = first["view"], first["game"]["last_seq"]
    while time.monotonic() < until and not (view["won"] or view["deadlocked"]):
        seq += 1
        kind, target = policy.next_action(view, rng)
        frame = {"type": kind, "seq": seq} | ({"target": target} if kind == "tap" else {})
        sent = time.perf_counter()
        await socket.send(json.dumps(frame))
        reply = json.loads(await socket.recv())
        tally.latencies_ms.append((time.perf_counter() - sent) * 1000)
        if reply["type"] == "error":
            tally.errors += 1
            return
        view = reply["view"]
        await pace.pause()


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))] if ordered else 0.0


async def run_phase(servers, players, profile: str, seconds: float, play: bool) -> tuple:
    tally, until = Tally(), time.monotonic() + seconds
    tasks = []
    for number, player in enumerate(players):
        server = servers[number % len(servers)]
        headers = {"Cookie": f"sessionid={player['sessionid']}", "Origin": server.origin}
        pace = Pace(profile, random.Random(number))
        if play:
            tasks.append(play_client(server, headers, pace, until, tally))
        else:
            tasks.append(echo_client(server.ws_url("/ws/echo/"), headers, pace, until, tally))
    started = time.monotonic()
    outcomes = await asyncio.gather(*tasks, return_exceptions=True)
    tally.errors += sum(isinstance(outcome, Exception) for outcome in outcomes)
    return tally, time.monotonic() - started


def summary(profile, players, servers, echo, echo_s, taps, taps_s, config) -> dict:
    tap_p50, tap_p99 = percentile(taps.latencies_ms, 0.5), percentile(taps.latencies_ms, 0.99)
    echo_p50, echo_p99 = percentile(echo.latencies_ms, 0.5), percentile(echo.latencies_ms, 0.99)
    taps_per_s, echo_per_s = len(taps.latencies_ms) / taps_s, len(echo.latencies_ms) / echo_s
    return {
        "profile": profile,
        "players": len(players),
        "taps": len(taps.latencies_ms),
        "games": taps.games,
        "tap_p50_ms": round(tap_p50, 2),
        "tap_p99_ms": round(tap_p99, 2),
        "echo_p50_ms": round(echo_p50, 2),
        "echo_p99_ms": round(echo_p99, 2),
        "ratio_p50": round(tap_p50 / echo_p50, 2) if echo_p50 else None,
        "ratio_p99": round(tap_p99 / echo_p99, 2) if echo_p99 else None,
        "taps_per_s": round(taps_per_s, 1),
        "echo_per_s": round(echo_per_s, 1),
        "throughput_ratio": round(taps_per_s / echo_per_s, 2) if echo_per_s else None,
        "rss_mb": round(sum(server.rss_mb() for server in servers), 1),
        "errors": taps.errors + echo.errors,
        **config,
    }


async def run_profile(servers, players, profile: str, seconds: float, config: dict) -> dict:
    echo, echo_s = await run_phase(servers, players, profile, seconds, play=False)
    taps, taps_s = await run_phase(servers, players, profile, seconds, play=True)
    return summary(profile, players, servers, echo, echo_s, taps, taps_s, config)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--profile", choices=["human", "saturation", "both"], default="both")
    parser.add_argument("--database-url", default="")
    parser.add_argument("--redis-url", default="")
    parser.add_argument("--processes", type=int, default=1)
    args = parser.parse_args()

    workdir = Path(tempfile.mkdtemp(prefix="h2h-load-"))
    env = server_env(
        sqlite_path=str(workdir / "load.sqlite3"),
        database_url=args.database_url,
        redis_url=args.redis_url,
        H2H_BENCH_ECHO="1",
        H2H_WORKERS=str(args.processes),
    )
    manage(env, "migrate", "--noinput")
    players = make_players(env, args.players)
    config = {
        "database": "postgresql" if args.database_url else "sqlite",
        "channel_layer": "redis" if args.redis_url else "in-memory",
        "processes": args.processes,
    }
    servers = [
        Server(env, log_path=str(workdir / f"daphne{n}.log")).start() for n in range(args.processes)
    ]
    try:
        profiles = ["human", "saturation"] if args.profile == "both" else [args.profile]
        for profile in profiles:
            result = asyncio.run(run_profile(servers, players, profile, args.seconds, config))
            print(json.dumps(result), flush=True)
    finally:
        for server in servers:
            server.stop()


if __name__ == "__main__":
    main()
