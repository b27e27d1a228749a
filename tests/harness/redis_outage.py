"""A Redis outage during play: `outage_run` (`python -m bench.redis_outage` runs it at full
size, tests/system/test_redis_outage.py a short one).

It starts a redis-server of its own on a free port, without persistence (so a restart forgets
every group, as a Redis restarted without its data does), and a daphne whose channel layer is
that Redis, on a SQLite file of its own (or PostgreSQL: --database-url names a database to
drop and create). Each player taps at a person's pace (one tap every 0.3-0.6 s) on a game of
their own. The first LISTENING players have a second tab open on the same game, which hears the
first tab's moves only through the channel layer, and the first WATCHED players a spectator,
which reconnects as the pages do (static/socket/socket.js). After --before seconds Redis is
stopped for --outage seconds, then started again on the same port, and play goes on --after
seconds. Then every player opens five sockets at once (the cap of a process): a place a socket
kept would refuse one.

It reports taps sent and answered in each phase, closes by code (1011 never),
refusals by error code, failed handshakes by HTTP status, how long after Redis came back each
second tab heard a move again and each spectator saw one (the worst of each), the players locked
out, and the server's channel-layer counters from /metrics.
"""

import argparse
import asyncio
import json
import random
import ssl
import tempfile
import time
import urllib.request
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from game.engine import format_code
from tests.harness.redis_server import Redis
from tests.harness.server import Server, fresh_database, make_players, manage, server_env

PACE_S = (0.3, 0.6)
TAP_TIMEOUT_S = 2.0  # a tap not answered by then counts as unanswered
LISTENING, WATCHED = 10, 10
SOCKETS_PER_PLAYER = 5


@dataclass
class Run:
    """What the clients saw, and when Redis stopped and started again."""

    stopped_at: float = float("inf")
    started_at: float = float("inf")
    over: bool = False
    taps: dict = field(default_factory=lambda: {p: [0, 0] for p in ("before", "outage", "after")})
    closes: Counter = field(default_factory=Counter)
    refusals: Counter = field(default_factory=Counter)
    handshakes_failed: Counter = field(default_factory=Counter)
    heard: dict = field(default_factory=dict)  # listener -> first move heard after the restart
    seen: dict = field(default_factory=dict)  # spectator -> first move seen after the restart

    def phase(self, at: float) -> str:
        if at < self.stopped_at:
            return "before"
        return "outage" if at < self.started_at else "after"

    def tapped(self, sent: float, answered: bool) -> None:
        counts = self.taps[self.phase(sent)]
        counts[0] += 1
        counts[1] += answered

    def moved(self, record: dict, who: int, at: float) -> None:
        if at >= self.started_at:
            record.setdefault(who, at - self.started_at)


def headers_of(server: Server, player: dict) -> dict:
    return {"Cookie": f"sessionid={player['sessionid']}", "Origin": server.origin}


async def reply_to(socket, seq: int) -> dict | None:
    """The frame that answers `seq`, past other tabs' frames; None if none comes in time."""
    deadline = time.monotonic() + TAP_TIMEOUT_S
    while (left := deadline - time.monotonic()) > 0:
        try:
            frame = json.loads(await asyncio.wait_for(socket.recv(), left))
        except TimeoutError:
            return None
        if frame.get("seq") == seq:
            return frame
    return None


async def tapping(socket, run: Run, rng: random.Random, game: dict) -> None:
    """Tap the stock (a draw, or the redeal) at a person's pace until the run is over."""
    seq = game["game"]["last_seq"]
    while not run.over:
        seq += 1
        sent = time.monotonic()
        await socket.send(json.dumps({"type": "tap", "seq": seq, "target": "stock"}))
        reply = await reply_to(socket, seq)
        run.tapped(sent, reply is not None and reply["type"] == "state")
        if reply is not None and reply["type"] == "error":
            run.refusals[reply["error"]] += 1
        await asyncio.sleep(rng.uniform(*PACE_S))


async def session(url: str, headers: dict, run: Run, use, tls: ssl.SSLContext | None = None):
    """Connect (over `tls` to a wss:// URL), greet, and `use(socket, greeting)`; reconnect after
    any close, backing off as the pages do, until the run is over. Closes, refusals and failed
    handshakes are counted."""
    attempt = 0
    while not run.over:
        code = None
        try:
            async with connect(url, additional_headers=headers, open_timeout=5, ssl=tls) as socket:
                greeting = json.loads(await socket.recv())
                if greeting["type"] == "error":
                    run.refusals[greeting["error"]] += 1
                    await socket.wait_closed()
                    code = socket.close_code
                else:
                    attempt = 0
                    await use(socket, greeting)
        except ConnectionClosed as closed:
            code = closed.rcvd.code if closed.rcvd else 1006
        except InvalidStatus as refused:
            run.handshakes_failed[refused.response.status_code] += 1
        except (OSError, TimeoutError):
            run.handshakes_failed["no answer"] += 1
        if code is not None:
            run.closes[code] += 1
        attempt += 1
        await asyncio.sleep(pause_before(attempt, code))


def pause_before(attempt: int, code: int | None) -> float:
    """static/socket/socket.js's back-off: 4013 (live updates paused) 1 s doubling to 3 s, any
    other close 0.5 s doubling to 15 s, with jitter."""
    return backoff(attempt, *((1.0, 3.0) if code == 4013 else (0.5, 15.0)))


def backoff(attempt: int, base: float, cap: float) -> float:
    """static/socket/socket.js's `backoff` before the `attempt`th try (from 1): `base` doubling
    to `cap`, the second half of it at random."""
    ceiling = min(cap, base * 2 ** (attempt - 1))
    return ceiling / 2 + random.random() * ceiling / 2


async def player_client(server: Server, player: dict, number: int, run: Run, games: dict):
    rng = random.Random(number)

    async def play(socket, greeting: dict) -> None:
        games[number] = greeting["game"]["id"]
        await tapping(socket, run, rng, greeting)

    url = server.ws_url(f"/ws/play/{format_code('N', 5000 + number)}/")
    await session(url, headers_of(server, player), run, play)


async def listener_client(server: Server, player: dict, number: int, run: Run) -> None:
    """The player's second tab: hears the first tab's moves through the channel layer."""

    async def listen(socket, greeting: dict) -> None:
        async for text in socket:
            if "event" in json.loads(text):  # another tab's move, not a resync
                run.moved(run.heard, number, time.monotonic())

    url = server.ws_url(f"/ws/play/{format_code('N', 5000 + number)}/")
    await session(url, headers_of(server, player), run, listen)


async def spectator_client(server: Server, number: int, run: Run, games: dict) -> None:
    while number not in games:
        await asyncio.sleep(0.05)

    async def watch(socket, greeting: dict) -> None:
        async for text in socket:
            if json.loads(text).get("event"):
                run.moved(run.seen, number, time.monotonic())

    url = server.ws_url(f"/ws/watch/{games[number]}/")
    await session(url, {"Origin": server.origin}, run, watch)


async def outage(redis: Redis, run: Run, before: float, seconds: float, after: float) -> None:
    await asyncio.sleep(before)
    run.stopped_at = time.monotonic()
    redis.stop()
    await asyncio.sleep(seconds)
    await asyncio.to_thread(redis.start)
    run.started_at = time.monotonic()
    await asyncio.sleep(after)
    run.over = True


async def locked_out(server: Server, players: list[dict]) -> int:
    """Players refused any of SOCKETS_PER_PLAYER sockets opened at once, each greeted."""

    async def all_open(player: dict) -> bool:
        headers, url = headers_of(server, player), server.ws_url("/ws/play/HH1-N-AAAAAAC/")
        sockets = [connect(url, additional_headers=headers) for _ in range(SOCKETS_PER_PLAYER)]
        opened = await asyncio.gather(*sockets, return_exceptions=True)
        live = [socket for socket in opened if not isinstance(socket, BaseException)]
        greetings = [json.loads(await socket.recv()) for socket in live]
        for socket in live:
            await socket.close()
        return len(live) == SOCKETS_PER_PLAYER and all(g["type"] == "state" for g in greetings)

    return sum(not ok for ok in await asyncio.gather(*(all_open(p) for p in players)))


async def measure(server: Server, redis: Redis, players: list[dict], args) -> dict:
    run, games = Run(), {}
    clients = [player_client(server, p, n, run, games) for n, p in enumerate(players)]
    listening = list(enumerate(players))[:LISTENING]
    clients += [listener_client(server, p, n, run) for n, p in listening]
    watched = min(WATCHED, len(players))
    clients += [spectator_client(server, n, run, games) for n in range(watched)]
    tasks = [asyncio.ensure_future(client) for client in clients]
    await outage(redis, run, args.before, args.outage, args.after)
    await asyncio.sleep(TAP_TIMEOUT_S)  # the taps in flight are answered, or not
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    await asyncio.sleep(1)  # the server hears every client leave
    counted = (len(listening), watched)
    return figures(run, counted, await locked_out(server, players), server)


def figures(run: Run, counted: tuple[int, int], locked: int, server: Server) -> dict:
    taps = {
        phase: {"sent": sent, "answered": answered, "ratio": round(answered / max(1, sent), 4)}
        for phase, (sent, answered) in run.taps.items()
    }
    worst = {
        name: max(seen.values(), default=None)
        for name, seen in (("second_tabs", run.heard), ("spectators", run.seen))
    }
    return {
        "taps": taps,
        "closes": {str(code): n for code, n in sorted(run.closes.items(), key=str)},
        "closes_1011": run.closes.get(1011, 0),
        "refusals": dict(run.refusals),
        "handshakes_failed": {str(k): n for k, n in run.handshakes_failed.items()},
        "recovered_after_s": {k: None if v is None else round(v, 2) for k, v in worst.items()},
        "second_tabs_hearing_again": f"{len(run.heard)} of {counted[0]}",
        "spectators_seeing_again": f"{len(run.seen)} of {counted[1]}",
        "players_locked_out": locked,
        "metrics": layer_metrics(server),
    }


def layer_metrics(server: Server) -> dict:
    """The server's channel-layer samples from /metrics (served to loopback)."""
    with urllib.request.urlopen(f"{server.origin}/metrics", timeout=5) as response:
        lines = response.read().decode().splitlines()
    return {
        line.split(" ")[0]: float(line.split(" ")[1])
        for line in lines
        if line.startswith("h2h_channel_layer_")
        and not line.startswith("#")
        and "_created" not in line
    }


def start(args) -> tuple[Server, Redis, list[dict]]:
    """Redis, then a migrated database with the players logged in, then daphne."""
    redis = Redis().start()
    workdir = Path(tempfile.mkdtemp(prefix="h2h-redis-outage-"))
    if args.database_url:
        fresh_database(args.database_url)
    env = server_env(
        sqlite_path=str(workdir / "db.sqlite3"),
        database_url=args.database_url or "",
        redis_url=redis.url,
    )
    manage(env, "migrate", "--noinput")
    players = make_players(env, args.players, prefix="outage")
    server = Server(env, log_path=str(workdir / "daphne.log")).start()
    return server, redis, players


def outage_run(
    players: int = 30,
    outage: float = 20,
    before: float = 5,
    after: float = 10,
    database_url: str = "",
) -> dict:
    """One run: its figures, and where the server's log is."""
    args = argparse.Namespace(
        players=players, outage=outage, before=before, after=after, database_url=database_url
    )
    server, redis, logged_in = start(args)
    try:
        result = asyncio.run(measure(server, redis, logged_in, args))
    finally:
        server.stop()
        redis.stop()
    return {"players": players, "outage_s": outage, **result, "daphne_log": server.log_path}
