"""A reconnect storm through the deployment kit's nginx, measured:

    python -m bench.reconnect_storm --database-url postgres://postgres@127.0.0.1:5432/h2h_storm \\
        [--redis-url redis://127.0.0.1:6379/6] [--sockets 200] [--runs 5] [--nginx deploy/nginx]

Two production daphnes (the h2h@ unit's command line) on PostgreSQL and Redis (--redis-url, or a
redis-server of the bench's own) behind the kit's nginx (bench.nginx; --nginx names a copy of
deploy/nginx/ to try other settings). Each run starts a fresh nginx and opens --sockets play
sockets over wss://, one per player, each on a deal of its own with one move stored; least_conn
gives each process half. Then each process in turn is killed (kill -9) and started again
RESTART_AFTER_S later, as the unit's Restart=always RestartSec=2 does: the first, then the
second as soon as the first listens again, as a rolling restart does. The sockets of a killed
process reconnect as the pages do (static/game/socket.js: 0.25-0.5 s, doubling to 15 s,
jittered): after the first kill half of them, to the other process; after the second all of
them, to the process that has just come back.

It prints one JSON object a run and then their medians. For each kill: how many sockets it
closed and how many resumed (greeted with their game as stored, its move there), the seconds
from the kill to the first, the middle, the 99th and the last greeting, and the handshakes
refused meanwhile (by HTTP status; nginx answers 502 when it finds no process to take one).
Then what nginx's error log says (processes taken out of the upstream, no live upstreams).
"""

import argparse
import asyncio
import contextlib
import json
import os
import ssl
import statistics
import tempfile
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from bench.load import percentile
from bench.nginx import KIT, Nginx, kit_config, unit_daphne_arguments, unverified
from bench.redis_outage import Redis, pause_before
from bench.server import Server, free_port, fresh_database, make_players, manage, server_env
from game.engine import format_code

RESTART_AFTER_S = 2.0  # deploy/systemd/h2h@.service: RestartSec=2
OPENING_AT_ONCE = 20  # sockets opening together before the kills: people trickle in
SETTING_UP_S = 180.0
OPEN_TIMEOUT_S = 10.0
GIVE_UP_S = 40.0  # after the last kill: a socket not resumed by then is not
NGINX_SAYS = {
    "marked_down": "upstream server temporarily disabled",
    "no_live_upstreams": "no live upstreams",
}


@dataclass
class Kill:
    """What the sockets one kill closed saw."""

    at: float
    closed: int = 0
    resumed: list[float] = field(default_factory=list)  # seconds from the kill to a greeting
    not_exact: int = 0  # greeted with a game that had lost its stored move
    handshakes_failed: Counter = field(default_factory=Counter)
    closed_before_greeting: Counter = field(default_factory=Counter)

    def figures(self) -> dict:
        return {
            "closed": self.closed,
            "resumed": len(self.resumed),
            "resumed_not_exact": self.not_exact,
            "first_resumed_s": round(min(self.resumed, default=0.0), 2),
            "resume_p50_s": round(percentile(self.resumed, 0.5), 2),
            "resume_p99_s": round(percentile(self.resumed, 0.99), 2),
            "resume_max_s": round(max(self.resumed, default=0.0), 2),
            "handshakes_failed": {str(k): v for k, v in self.handshakes_failed.items()},
            "closed_before_greeting": {str(k): v for k, v in self.closed_before_greeting.items()},
        }


@dataclass
class Storm:
    kills: list[Kill] = field(default_factory=list)
    over: bool = False

    def waiting(self) -> bool:
        """Whether a socket a kill closed has not resumed yet."""
        return any(len(kill.resumed) < kill.closed for kill in self.kills)


@dataclass
class Site:
    """The two daphnes, nginx's port and the players: what a run needs."""

    daphnes: list[Server]
    players: list[dict]
    https_port: int = 0
    tls: ssl.SSLContext = field(default_factory=unverified)

    @property
    def origin(self) -> str:
        return f"https://127.0.0.1:{self.https_port}"

    def url(self, code: str) -> str:
        return f"wss://127.0.0.1:{self.https_port}/ws/play/{code}/"

    def headers(self, player: dict) -> dict:
        return {"Cookie": f"sessionid={player['sessionid']}", "Origin": self.origin}


# The clients ---------------------------------------------------------------------------------


async def open_socket(site: Site, player: dict, code: str):
    return await connect(
        site.url(code),
        additional_headers=site.headers(player),
        ssl=site.tls,
        open_timeout=OPEN_TIMEOUT_S,
    )


async def first_move(site: Site, player: dict, code: str):
    """A socket on `code` whose game has one move stored (a draw from the stock)."""
    socket = await open_socket(site, player, code)
    greeting = json.loads(await socket.recv())
    assert greeting["type"] == "state", greeting
    await socket.send(json.dumps({"type": "tap", "seq": 1, "target": "stock"}))
    reply = json.loads(await socket.recv())
    assert reply.get("seq") == 1 and reply["type"] == "state", reply
    return socket


async def opened_all(site: Site, codes: list[str]) -> list:
    """Every player's socket, with its first move stored, a few opening at a time."""
    opening = asyncio.Semaphore(OPENING_AT_ONCE)

    async def one(player: dict, code: str):
        async with opening:
            return await first_move(site, player, code)

    return await asyncio.gather(*map(one, site.players, codes))


async def resume(site: Site, player: dict, code: str, kill: Kill, storm: Storm):
    """Reconnect after a kill's close as the pages do; the socket that greeted with the game,
    or None once the storm is over."""
    attempt = 0
    while not storm.over:
        attempt += 1
        await asyncio.sleep(pause_before(attempt, 1006))
        try:
            socket = await open_socket(site, player, code)
        except InvalidStatus as refused:
            kill.handshakes_failed[refused.response.status_code] += 1
            continue
        except (OSError, TimeoutError):
            kill.handshakes_failed["no answer"] += 1
            continue
        if await greeted(socket, kill):
            return socket
    return None


async def greeted(socket, kill: Kill) -> bool:
    """The greeting's game, as stored (its move there), counted; a close or a refusal (by its
    code) counted instead."""
    try:
        greeting = json.loads(await socket.recv())
    except ConnectionClosed as closed:
        kill.closed_before_greeting[closed.rcvd.code if closed.rcvd else 1006] += 1
        return False
    if greeting["type"] == "error":  # a refusal: its close follows
        kill.closed_before_greeting[greeting["error"]] += 1
        await socket.close()
        return False
    kill.resumed.append(time.monotonic() - kill.at)
    kill.not_exact += greeting.get("game", {}).get("last_seq") != 1
    return True


async def held(site: Site, sockets: list, codes: list[str], storm: Storm) -> None:
    """Each socket held open, and resumed whenever a kill closes it, until `storm.over`."""

    async def hold(number: int) -> None:
        while sockets[number] is not None:
            await sockets[number].wait_closed()
            if storm.over:
                return
            kill = storm.kills[-1]
            kill.closed += 1
            player, code = site.players[number], codes[number]
            sockets[number] = await resume(site, player, code, kill, storm)

    tasks = [asyncio.create_task(hold(number)) for number in range(len(sockets))]
    while not storm.over:
        await asyncio.sleep(0.1)
    await asyncio.gather(*(s.close() for s in sockets if s is not None), return_exceptions=True)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


@contextlib.contextmanager
def clients_loop():
    """An event loop in a thread of its own for the clients, so that this thread, which started
    the daphnes, kills and restarts them (a daphne dies with the thread that started it)."""
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, name="storm-clients")
    thread.start()
    try:
        yield lambda coroutine: asyncio.run_coroutine_threadsafe(coroutine, loop)
    finally:
        asyncio.run_coroutine_threadsafe(_cancel_the_rest(), loop).result(timeout=10)
        loop.call_soon_threadsafe(loop.stop)
        thread.join()
        loop.close()


async def _cancel_the_rest() -> None:
    """The closed sockets' own tasks (their keepalives), ended before the loop is."""
    rest = [task for task in asyncio.all_tasks() if task is not asyncio.current_task()]
    for task in rest:
        task.cancel()
    await asyncio.gather(*rest, return_exceptions=True)


# A run ---------------------------------------------------------------------------------------


def storm(site: Site, number: int) -> list[dict]:
    """Every player's socket open, then each process killed and restarted in turn (the second
    as soon as the first listens again); each kill's figures."""
    run = Storm()
    codes = [format_code("N", 100_000 * (number + 1) + n) for n in range(len(site.players))]
    with clients_loop() as call:
        sockets = call(opened_all(site, codes)).result(timeout=SETTING_UP_S)
        holding = call(held(site, sockets, codes, run))
        for victim in site.daphnes:
            run.kills.append(Kill(at=time.monotonic()))
            victim.kill()
            time.sleep(RESTART_AFTER_S)
            victim.start()
        deadline = time.monotonic() + GIVE_UP_S
        while run.waiting() and time.monotonic() < deadline:
            time.sleep(0.1)
        run.over = True
        holding.result(timeout=OPEN_TIMEOUT_S + 5)
    return [kill.figures() for kill in run.kills]


def listen_overflows() -> int:
    """Connections that found a listen queue full on this machine (any listener, the run's
    or not): each waits a second for its SYN to be sent again (Linux's TcpExt counter)."""
    lines = Path("/proc/net/netstat").read_text().splitlines()
    names, values = (line.split() for line in lines if line.startswith("TcpExt:"))
    return int(dict(zip(names, values, strict=True)).get("ListenOverflows", 0))


def nginx_said(nginx: Nginx) -> dict:
    log = nginx.error_log()
    return {name: log.count(words) for name, words in NGINX_SAYS.items()}


def one_run(site: Site, number: int, folder: Path, kit: Path) -> dict:
    """A fresh nginx in `folder` on the kit's files (or `kit`'s), and a storm through it."""
    site.https_port, http_port = free_port(), free_port()
    ports = [daphne.port for daphne in site.daphnes]
    kit_config(
        folder, daphne_ports=ports, http_port=http_port, https_port=site.https_port, nginx=kit
    )
    nginx = Nginx(folder, [site.https_port, http_port]).start()
    overflows = listen_overflows()
    try:
        kills = storm(site, number)
    finally:
        nginx.stop()
    return {
        "sockets": len(site.players),
        "first_kill": kills[0],
        "second_kill": kills[1],
        "nginx": nginx_said(nginx),
        "listen_overflows": listen_overflows() - overflows,
        "load_average": round(os.getloadavg()[0], 2),
    }


def medians(runs: list[dict]) -> dict:
    """Each figure's median over the runs; the refused handshakes summed."""
    summary: dict = {"runs": len(runs)}
    for kill in ("first_kill", "second_kill"):
        figures = [run[kill] for run in runs]
        numbers = [key for key, value in figures[0].items() if isinstance(value, int | float)]
        summary[kill] = {key: statistics.median(f[key] for f in figures) for key in numbers}
        failed = sum((Counter(f["handshakes_failed"]) for f in figures), Counter())
        summary[kill]["handshakes_failed_in_all_runs"] = dict(failed)
    return summary


def started_site(args, redis_url: str, workdir: Path) -> Site:
    env = server_env(
        sqlite_path=str(workdir / "unused.sqlite3"),
        database_url=args.database_url,
        redis_url=redis_url,
        H2H_ALLOW_HTTP_ORIGINS="0",
        H2H_SSL_REDIRECT="1",
        H2H_WORKERS="2",
    )
    fresh_database(args.database_url)
    manage(env, "migrate", "--noinput")
    players = make_players(env, args.sockets, prefix="storm")
    arguments = unit_daphne_arguments()
    logs = [str(workdir / f"daphne-{n}.log") for n in (1, 2)]
    return Site([Server(env, log_path=log, arguments=arguments).start() for log in logs], players)


def arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database-url", required=True, help="a PostgreSQL database's URL")
    parser.add_argument("--redis-url", default="", help="default: a redis-server of our own")
    parser.add_argument("--sockets", type=int, default=200)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--nginx", type=Path, default=KIT / "nginx", help="the kit's nginx files")
    return parser.parse_args()


def main() -> None:
    args, workdir = arguments(), Path(tempfile.mkdtemp(prefix="h2h-storm-"))
    own = None if args.redis_url else Redis().start()
    site = started_site(args, args.redis_url or own.url, workdir)
    runs = []
    try:
        for number in range(args.runs):
            folder = workdir / f"nginx-{number}"
            folder.mkdir()
            runs.append(one_run(site, number, folder, args.nginx))
            print(json.dumps(runs[-1]), flush=True)
        print(json.dumps(medians(runs)), flush=True)
    finally:
        for daphne in site.daphnes:
            daphne.stop()
        if own is not None:
            own.stop()


if __name__ == "__main__":
    main()
