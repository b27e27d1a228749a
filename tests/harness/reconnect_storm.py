"""A reconnect storm: `storm` opens every player's play socket over wss:// through nginx, each on
a deal of its own with one move stored, then kills (kill -9) and restarts each daphne in turn
RESTART_AFTER_S later, as the h2h@ unit's Restart=always RestartSec=2 does: the first, then the
second as soon as the first listens again, as a rolling restart does. The sockets of a killed
process reconnect as the pages do (static/socket/socket.js: 0.25-0.5 s, doubling to 15 s,
jittered). For each kill: how many sockets it closed and how many resumed (greeted with their
game as stored, its move there), the seconds from the kill to the first, the middle, the 99th
and the last greeting, and the handshakes refused meanwhile (by HTTP status).

`python -m bench.reconnect_storm` sets the site up (`kit_site`) and measures runs of it, and
bench.faults runs one as a trial; tests/system/test_nginx.py runs one through the deployment
kit's nginx.
"""

import asyncio
import contextlib
import json
import ssl
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from game.engine import format_code
from tests.harness.figures import percentile
from tests.harness.nginx import unit_daphne_arguments, unverified
from tests.harness.redis_outage import pause_before
from tests.harness.server import Server, fresh_database, make_players, manage, server_env

RESTART_AFTER_S = 2.0  # deploy/systemd/h2h@.service: RestartSec=2
OPENING_AT_ONCE = 20  # sockets opening together before the kills: people trickle in
SETTING_UP_S = 180.0
OPEN_TIMEOUT_S = 10.0
GIVE_UP_S = 40.0  # after the last kill: a socket not resumed by then is not


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
    restarted: float = 0.0  # when the last process killed listened again
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


def kit_env(workdir: Path, database_url: str, redis_url: str) -> dict:
    """The daphnes' environment behind the kit's nginx: production (pages are https only), two
    processes on PostgreSQL and Redis."""
    return server_env(
        sqlite_path=str(workdir / "unused.sqlite3"),
        database_url=database_url,
        redis_url=redis_url,
        H2H_ALLOW_HTTP_ORIGINS="0",
        H2H_SSL_REDIRECT="1",
        H2H_WORKERS="2",
    )


def kit_site(env: dict, workdir: Path, players: int, prefix: str) -> Site:
    """env's database made afresh and migrated, `players` logged in (named `prefix`<n>), and two
    daphnes started with the h2h@ unit's command line, logging into `workdir`."""
    fresh_database(env["H2H_DATABASE_URL"])
    manage(env, "migrate", "--noinput")
    logged_in = make_players(env, players, prefix=prefix)
    arguments, logs = unit_daphne_arguments(), [workdir / f"daphne-{n}.log" for n in (1, 2)]
    daphnes = [Server(env, log_path=str(log), arguments=arguments).start() for log in logs]
    return Site(daphnes, logged_in)


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


# A storm -------------------------------------------------------------------------------------


def storm_codes(number: int, sockets: int) -> list[str]:
    """The deals of storm `number`'s sockets, one each, none another storm's."""
    return [format_code("N", 100_000 * (number + 1) + n) for n in range(sockets)]


def storm(site: Site, number: int, run: Storm | None = None) -> list[dict]:
    """Every player's socket open, then each process killed and restarted in turn (the second
    as soon as the first listens again); each kill's figures. `run`, if given, keeps what the
    sockets saw."""
    run = run or Storm()
    codes = storm_codes(number, len(site.players))
    with clients_loop() as call:
        sockets = call(opened_all(site, codes)).result(timeout=SETTING_UP_S)
        holding = call(held(site, sockets, codes, run))
        for victim in site.daphnes:
            run.kills.append(Kill(at=time.monotonic()))
            victim.kill()
            time.sleep(RESTART_AFTER_S)
            victim.start()
        run.restarted = time.monotonic()
        deadline = time.monotonic() + GIVE_UP_S
        while run.waiting() and time.monotonic() < deadline:
            time.sleep(0.1)
        run.over = True
        holding.result(timeout=OPEN_TIMEOUT_S + 5)
    return [kill.figures() for kill in run.kills]
