"""Load benchmark: real games over websockets against two references in the same process.

    python -m bench.load [--players 200] [--seconds 30] [--profile human|saturation|both]
    python -m bench.load --open-games 1000          # resident memory with 1,000 games open

It starts daphne on 127.0.0.1 with a fresh SQLite file (or PostgreSQL and Redis with
--database-url/--redis-url, and --processes 2), signs up the players, then for each profile
runs the same clients at the same pace against the two echoes of bench.echo (a Channels
consumer: the platform's limit; a bare ASGI application: the floor) and playing games, and
prints one JSON object per profile. The three kinds of client take turns in slices of about
SLICE_S seconds (echo, floor, play, echo, ...), so a busy machine slows them alike; each
client's socket stays open across the turns, and the first game of each player is opened
before the clock starts, as the echo sockets are. The server runs with the per-socket
flood limit off (H2H_TAP_RATE=0): saturation measures capacity, not the limit.
"""

import argparse
import asyncio
import contextlib
import json
import os
import random
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from websockets.asyncio.client import connect

from game.engine import random_code
from tests.harness import policy
from tests.harness.figures import percentile
from tests.harness.policy import HUMAN_PAUSE_S, frame_text
from tests.harness.server import Server, fresh_database, make_players, manage, server_env

SLICE_S = 5.0
ARRIVING_AT_ONCE = 16  # sockets opening together before the clock starts: people trickle in
ECHO_AND_SITE = "bench.echo:application"  # the site with both echoes added
KINDS = ("echo", "floor", "play")  # the order they take turns in


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


class Gate:
    """Lets one kind of client run at a time, and counts the seconds it ran."""

    def __init__(self, arrivals: asyncio.Semaphore, cpu_seconds) -> None:
        self.opened, self.done = asyncio.Event(), False
        self.busy, self.seconds, self.arrived = 0, 0.0, 0
        self.arrivals = arrivals  # shared by every kind: the first connects, a few at a time
        self.cpu_seconds, self.cpu = cpu_seconds, 0.0  # the servers' CPU time in this kind's turns

    async def admit(self, pace: Pace) -> bool:
        """Wait for this kind's turn; False once the run is over."""
        while not self.done and not self.opened.is_set():
            await self.opened.wait()
            await pace.pause()  # a person picks up again after a pause, not all at once
        return not self.done

    @contextlib.asynccontextmanager
    async def request(self):
        self.busy += 1
        try:
            yield
        finally:
            self.busy -= 1

    async def run_for(self, seconds: float) -> None:
        started, cpu = time.monotonic(), self.cpu_seconds()
        self.opened.set()
        await asyncio.sleep(seconds)
        self.opened.clear()
        while self.busy:  # let the requests in flight finish inside this turn
            await asyncio.sleep(0.001)
        self.seconds += time.monotonic() - started
        self.cpu += self.cpu_seconds() - cpu

    def finish(self) -> None:
        self.done = True
        self.opened.set()


async def echo_client(url: str, headers: dict, pace: Pace, gate: Gate, tally: Tally) -> None:
    async with gate.arrivals:
        socket = await connect(url, additional_headers=headers, max_size=2**20)
    async with socket:
        seq, gate.arrived = 0, gate.arrived + 1
        while await gate.admit(pace):
            seq += 1
            async with gate.request():
                sent = time.perf_counter()
                await socket.send(frame_text(seq, "tap", "stock"))
                await socket.recv()
                tally.latencies_ms.append((time.perf_counter() - sent) * 1000)
            await pace.pause()


async def play_client(server: Server, headers: dict, pace: Pace, gate: Gate, tally: Tally):
    """Play games one after another; the next one opens as soon as the last one ends."""
    first = True
    while not gate.done:
        url = server.ws_url(f"/ws/play/{random_code()}/")
        async with gate.arrivals if first else contextlib.nullcontext():
            socket = await connect(url, additional_headers=headers, max_size=2**20)
            greeting = json.loads(await socket.recv())
        async with socket:
            gate.arrived += first
            first = False
            finished = await play_one_game(socket, greeting, pace, gate, tally)
            tally.games += finished  # not `+= await`: that reads the count before awaiting


async def play_one_game(socket, greeting: dict, pace: Pace, gate: Gate, tally: Tally) -> bool:
    """Tap as a person would until the game ends (True) or the run does (False)."""
    view, seq = greeting["view"], greeting["game"]["last_seq"]
    while not (view["won"] or view["deadlocked"]):
        if not await gate.admit(pace):
            return False
        seq += 1
        kind, target = policy.next_action(view, pace.rng)
        async with gate.request():
            sent = time.perf_counter()
            await socket.send(frame_text(seq, kind, target))
            reply = json.loads(await socket.recv())
            tally.latencies_ms.append((time.perf_counter() - sent) * 1000)
        if reply["type"] == "error":
            tally.errors += 1
            return False
        view = reply["view"]
        await pace.pause()
    return True


# The two references, by kind (bench.echo serves them; not imported here: it sets Django up).
ECHOES = {"echo": "/ws/echo/", "floor": "/ws/floor/"}


def player_clients(server: Server, player: dict, number: int, profile: str, run) -> list:
    """One player's clients: a socket on each echo, and games one after another."""
    headers = {"Cookie": f"sessionid={player['sessionid']}", "Origin": server.origin}
    gates, tallies = run

    def pace() -> Pace:
        return Pace(profile, random.Random(number))  # the same pauses for every kind

    clients = [
        echo_client(server.ws_url(path), headers, pace(), gates[kind], tallies[kind])
        for kind, path in ECHOES.items()
    ]
    return [*clients, play_client(server, headers, pace(), gates["play"], tallies["play"])]


async def run_profile_phases(servers, players, profile: str, seconds: float) -> tuple:
    """Each kind of client in turn (echo, floor, play, echo, ...); its tally and seconds."""
    arrivals = asyncio.Semaphore(ARRIVING_AT_ONCE)
    gates = {kind: Gate(arrivals, lambda: sum(s.cpu_seconds() for s in servers)) for kind in KINDS}
    tallies = {kind: Tally() for kind in KINDS}
    tasks = [
        client
        for number, player in enumerate(players)
        for client in player_clients(
            servers[number % len(servers)], player, number, profile, (gates, tallies)
        )
    ]
    clients = asyncio.gather(*tasks, return_exceptions=True)
    deadline = time.monotonic() + 60
    while sum(gate.arrived for gate in gates.values()) < len(tasks) and time.monotonic() < deadline:
        await asyncio.sleep(0.05)  # every socket connected and every first game open
    slices = max(1, round(seconds / SLICE_S))
    for _ in range(slices):
        for gate in gates.values():
            await gate.run_for(seconds / slices)
    for gate in gates.values():
        gate.finish()
    failures = [outcome for outcome in await clients if isinstance(outcome, Exception)]
    for failure in failures[:3]:
        print(f"client failed: {failure!r}", flush=True)
    tallies["play"].errors += len(failures)
    return tallies, {kind: (gate.seconds, gate.cpu) for kind, gate in gates.items()}


def ratio(over: float, under: float) -> float | None:
    return round(over / under, 2) if under else None


def summary(profile, players, servers, tallies, seconds, config) -> dict:
    p50 = {kind: percentile(tally.latencies_ms, 0.5) for kind, tally in tallies.items()}
    p99 = {kind: percentile(tally.latencies_ms, 0.99) for kind, tally in tallies.items()}
    counts = {kind: max(1, len(tallies[kind].latencies_ms)) for kind in KINDS}
    per_s = {kind: len(tallies[kind].latencies_ms) / seconds[kind][0] for kind in KINDS}
    cpu_ms = {kind: 1000 * seconds[kind][1] / counts[kind] for kind in KINDS}
    return {
        "profile": profile,
        "players": len(players),
        "taps": len(tallies["play"].latencies_ms),
        "games": tallies["play"].games,
        "tap_p50_ms": round(p50["play"], 2),
        "tap_p99_ms": round(p99["play"], 2),
        "echo_p50_ms": round(p50["echo"], 2),
        "echo_p99_ms": round(p99["echo"], 2),
        "floor_p50_ms": round(p50["floor"], 2),
        "floor_p99_ms": round(p99["floor"], 2),
        "ratio_p50": ratio(p50["play"], p50["echo"]),
        "ratio_p99": ratio(p99["play"], p99["echo"]),
        "floor_ratio_p50": ratio(p50["play"], p50["floor"]),
        "taps_per_s": round(per_s["play"], 1),
        "echo_per_s": round(per_s["echo"], 1),
        "floor_per_s": round(per_s["floor"], 1),
        "throughput_ratio": ratio(per_s["play"], per_s["echo"]),
        "tap_cpu_ms": round(cpu_ms["play"], 3),
        "echo_cpu_ms": round(cpu_ms["echo"], 3),
        "floor_cpu_ms": round(cpu_ms["floor"], 3),
        "cpu_ratio": ratio(cpu_ms["play"], cpu_ms["echo"]),
        "rss_mb": round(sum(server.rss_mb() for server in servers), 1),
        "errors": sum(tally.errors for tally in tallies.values()),
        **config,
        "load_average": round(os.getloadavg()[0], 2),  # others' work on this machine, 1 min
    }


async def run_profile(servers, players, profile: str, seconds: float, config: dict) -> dict:
    tallies, seconds_run = await run_profile_phases(servers, players, profile, seconds)
    return summary(profile, players, servers, tallies, seconds_run, config)


async def open_games(servers, players, taps_each: int, config: dict) -> dict:
    """Open one game socket per player, play `taps_each` taps in each, and read the memory."""
    before = sum(server.rss_mb() for server in servers)
    async with contextlib.AsyncExitStack() as stack:
        sockets = []
        for number, player in enumerate(players):
            server = servers[number % len(servers)]
            headers = {"Cookie": f"sessionid={player['sessionid']}", "Origin": server.origin}
            url = server.ws_url(f"/ws/play/{random_code()}/")
            sockets.append(
                await stack.enter_async_context(connect(url, additional_headers=headers))
            )
        errors = await asyncio.gather(
            *(tap_a_while(s, number, taps_each) for number, s in enumerate(sockets))
        )
        await asyncio.sleep(1)
        return {
            "profile": "open_games",
            "open_games": len(sockets),
            "taps_each": taps_each,
            "rss_mb": round(sum(server.rss_mb() for server in servers), 1),
            "rss_mb_before": round(before, 1),
            "errors": sum(errors),
            **config,
        }


async def tap_a_while(socket, number: int, taps: int) -> int:
    greeting, rng = json.loads(await socket.recv()), random.Random(number)
    view, first, errors = greeting["view"], greeting["game"]["last_seq"] + 1, 0
    for seq in range(first, first + taps):
        if view["won"] or view["deadlocked"]:
            break
        await socket.send(frame_text(seq, *policy.next_action(view, rng)))
        reply = json.loads(await socket.recv())
        errors += reply["type"] == "error"
        view = reply.get("view", view)
    return errors


def arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--profile", choices=["human", "saturation", "both"], default="both")
    parser.add_argument("--database-url", default="")
    parser.add_argument("--redis-url", default="")
    parser.add_argument("--processes", type=int, default=1)
    parser.add_argument("--open-games", type=int, default=0, help="instead: N open games' RSS")
    parser.add_argument("--taps-each", type=int, default=30, help="with --open-games")
    return parser.parse_args()


def prepared(args: argparse.Namespace, workdir: Path) -> tuple[dict, list[dict]]:
    """The servers' environment, on a migrated empty database with the players signed up."""
    env = server_env(
        sqlite_path=str(workdir / "load.sqlite3"),
        database_url=args.database_url,
        redis_url=args.redis_url,
        H2H_WORKERS=str(args.processes),
        # The saturation profile measures capacity, so the per-socket flood limit is off
        # (a rate of 0); the human pace (2 taps/s) is far below it anyway.
        H2H_TAP_RATE="0",
    )
    if args.database_url:
        fresh_database(args.database_url)  # every run starts from the same empty database
    manage(env, "migrate", "--noinput")
    return env, make_players(env, args.open_games or args.players)


def main() -> None:
    args, workdir = arguments(), Path(tempfile.mkdtemp(prefix="h2h-load-"))
    env, players = prepared(args, workdir)
    config = {
        "database": "postgresql" if args.database_url else "sqlite",
        "channel_layer": "redis" if args.redis_url else "in-memory",
        "processes": args.processes,
        "tap_rate_limit": "off",
    }
    servers = [
        Server(env, log_path=str(workdir / f"daphne{n}.log"), application=ECHO_AND_SITE).start()
        for n in range(args.processes)
    ]
    try:
        if args.open_games:
            print(json.dumps(asyncio.run(open_games(servers, players, args.taps_each, config))))
            return
        profiles = ["human", "saturation"] if args.profile == "both" else [args.profile]
        for profile in profiles:
            result = asyncio.run(run_profile(servers, players, profile, args.seconds, config))
            print(json.dumps(result), flush=True)
    finally:
        for server in servers:
            server.stop()


if __name__ == "__main__":
    main()
