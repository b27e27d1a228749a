"""Soak: clients churning against one daphne for a long while; memory and resources must settle.

    python -m bench.soak [--clients 300] [--seconds 600] [--warmup 60]

Each client is a player of its own that connects, plays 20 taps chosen from the public view
(tests/harness/policy.py) at a person's pace, disconnects, waits a moment and does it again, on the
default one-machine set-up (SQLite, the in-memory channel layer, the default rate limit).
The server's resident memory is sampled all along: after the warm-up it must grow less than
10 %. Once every client has gone, the event loop's tasks, the channel layer's groups and
members, the play sockets and the SQLite handles must be back at their idle baseline.
Prints one JSON line of figures; --seconds 120 is a quick run.
"""

import argparse
import asyncio
import json
import random
import tempfile
import time
import urllib.request
from pathlib import Path

from websockets.asyncio.client import connect
from websockets.exceptions import WebSocketException

from game import engine
from tests.harness import policy
from tests.harness.server import Server, make_players, manage, server_env

PROBE_PATH = "/bench/probe"  # served by bench.probe: the soak's look inside the server
TAPS_PER_VISIT = 20
TAP_INTERVAL_S = (0.3, 0.9)  # a person's pace, about two taps a second
PAUSE_BETWEEN_VISITS_S = (0.5, 3.0)
SETTLE_S = 15  # how long the server may take to let go of everything after the last client
BASELINE = ("tasks", "sockets", "groups", "group_members", "channels", "sqlite_handles")


def probe(server: Server, query: str = "") -> dict:
    url = server.origin + PROBE_PATH + (f"?{query}" if query else "")
    with urllib.request.urlopen(url, timeout=30) as response:
        return json.loads(response.read())


class Client:
    """One player's visits: connect, 20 taps, disconnect, again."""

    def __init__(self, server: Server, player: dict, rng: random.Random) -> None:
        self.server, self.player, self.rng = server, player, rng
        self.code = engine.random_code()
        self.visits = self.taps = self.games = 0
        self.problems: list[str] = []

    async def run(self, until: float) -> None:
        while time.monotonic() < until:
            try:
                await self.visit(until)
            except (WebSocketException, OSError, TimeoutError) as error:
                self.problems.append(f"{self.player['name']}: {error!r}")
            await asyncio.sleep(self.rng.uniform(*PAUSE_BETWEEN_VISITS_S))

    async def visit(self, until: float) -> None:
        headers = {"Cookie": f"sessionid={self.player['sessionid']}"}
        url = self.server.ws_url(f"/ws/play/{self.code}/")
        async with connect(url, origin=self.server.origin, additional_headers=headers) as socket:
            first = json.loads(await asyncio.wait_for(socket.recv(), 30))
            view, seq = first["view"], first["game"]["last_seq"]
            self.visits += 1
            for _ in range(TAPS_PER_VISIT):
                if view["won"] or view["deadlocked"] or time.monotonic() >= until:
                    break
                seq += 1
                kind, target = policy.next_action(view, self.rng)
                frame = {"type": kind, "seq": seq} | ({"target": target} if kind == "tap" else {})
                await socket.send(json.dumps(frame))
                reply = json.loads(await asyncio.wait_for(socket.recv(), 30))
                if reply["type"] != "state":
                    self.problems.append(f"{frame} -> {reply.get('error')}")
                    break
                view, self.taps = reply["view"], self.taps + 1
                await asyncio.sleep(self.rng.uniform(*TAP_INTERVAL_S))
        if view["won"] or view["deadlocked"]:
            self.code, self.games = engine.random_code(), self.games + 1


async def churn(server, players: list[dict], seconds: float, warmup: float, query: str) -> dict:
    started = time.monotonic()
    until = started + seconds
    clients = [Client(server, p, random.Random(n)) for n, p in enumerate(players)]
    tasks = []
    for client in clients:  # ramp up over a few seconds, as people arrive
        tasks.append(asyncio.create_task(client.run(until)))
        await asyncio.sleep(5 / len(clients))
    samples = []
    while time.monotonic() < until:
        await asyncio.sleep(min(10, max(0.1, until - time.monotonic())))
        point = await asyncio.to_thread(probe, server, query)
        samples.append((round(time.monotonic() - started), point["rss_mb"], point["sockets"]))
    await asyncio.gather(*tasks)
    after_warmup = [rss for at, rss, _ in samples if at >= warmup]
    return {
        "clients": clients,
        "samples": samples,
        "rss_after_warmup_mb": after_warmup[0] if after_warmup else None,
        "rss_end_mb": samples[-1][1] if samples else None,
    }


async def settled(server: Server, baseline: dict) -> dict:
    """The probe once it is back at the baseline, or after SETTLE_S."""
    deadline = time.monotonic() + SETTLE_S
    while True:
        point = await asyncio.to_thread(probe, server)
        if all(point[key] <= baseline[key] for key in BASELINE) or time.monotonic() > deadline:
            return point
        await asyncio.sleep(0.5)


def run(clients: int = 300, seconds: float = 600, warmup: float = 60, collect=False) -> dict:
    workdir = Path(tempfile.mkdtemp(prefix="h2h-soak-"))
    env = server_env(sqlite_path=str(workdir / "db.sqlite3"))
    manage(env, "migrate", "--noinput")
    players = make_players(env, clients, prefix="soak")
    server = Server(
        env, log_path=str(workdir / "daphne.log"), application="bench.probe:application"
    )
    with server:
        baseline = probe(server)
        query = "collect" if collect else ""
        churned = asyncio.run(churn(server, players, seconds, min(warmup, seconds / 2), query))
        after = asyncio.run(settled(server, baseline))
        log = Path(server.log_path).read_text(errors="replace")
    everyone = churned["clients"]
    warm, end = churned["rss_after_warmup_mb"], churned["rss_end_mb"]
    return {
        "clients": clients,
        "seconds": seconds,
        "visits": sum(c.visits for c in everyone),
        "taps": sum(c.taps for c in everyone),
        "taps_per_s": round(sum(c.taps for c in everyone) / seconds),
        "games_finished": sum(c.games for c in everyone),
        "rss_baseline_mb": baseline["rss_mb"],
        "rss_after_warmup_mb": warm,
        "rss_end_mb": end,
        "rss_growth_after_warmup_pct": round(100 * (end - warm) / warm, 1) if warm else None,
        "rss_samples": churned["samples"],
        "baseline": {key: baseline[key] for key in BASELINE},
        "after": {key: after[key] for key in BASELINE},
        "back_to_baseline": all(after[key] <= baseline[key] for key in BASELINE),
        "threads": [baseline["threads"], after["threads"]],
        "sql_statements": after["sql_statements"],  # game.storage.appends: bounded
        "problems": [p for c in everyone for p in c.problems][:20],
        "problem_count": sum(len(c.problems) for c in everyone),
        "tracebacks": log.count("Traceback"),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=300)
    parser.add_argument("--seconds", type=float, default=600)
    parser.add_argument("--warmup", type=float, default=60)
    parser.add_argument(
        "--collect",
        action="store_true",
        help="a full gc.collect() in the server before each sample",
    )
    args = parser.parse_args()
    print(json.dumps(run(args.clients, args.seconds, args.warmup, args.collect)))


if __name__ == "__main__":
    main()
