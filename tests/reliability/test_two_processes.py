"""Two daphne processes sharing one Redis and one PostgreSQL: a game finished on one reaches a
leaderboard socket and a race opponent connected to the other, and presence counts both; a
deal opened on one closes its spectator's watch socket on the other.

Each process has its own memory, so only the channel layer (Redis) and the database can carry
anything between them: exactly what a deployment behind a proxy relies on.
"""

import asyncio
import json
import os
import secrets
import tempfile
import time
from urllib.parse import urlsplit, urlunsplit

import psycopg
import pytest
import redis
import websockets

from bench.server import Server, make_players, manage, server_env
from game import engine
from tests.reliability.conftest import run_async

pytestmark = [pytest.mark.postgres, pytest.mark.redis]

REDIS_DB = 11  # a database number no other test uses
TIMEOUT = 10


def with_path(url: str, path: str) -> str:
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, path, "", ""))


@pytest.fixture(scope="module")
def scaled():
    """(database_url, redis_url): a fresh PostgreSQL database and an empty Redis database."""
    base = os.environ["H2H_DATABASE_URL"]
    name = f"h2h_two_processes_{secrets.token_hex(4)}"
    admin = with_path(base, "/postgres")
    with psycopg.connect(admin, autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')
    redis_url = with_path(os.environ["H2H_REDIS_URL"], f"/{REDIS_DB}")
    store = redis.Redis.from_url(redis_url)
    store.flushdb()
    yield with_path(base, f"/{name}"), redis_url
    store.flushdb()
    with psycopg.connect(admin, autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(scope="module")
def servers(scaled):
    """Two servers on two ports over the same database and channel layer, and two players."""
    database_url, redis_url = scaled
    workdir = tempfile.mkdtemp(prefix="h2h-two-")
    env = server_env(
        sqlite_path=f"{workdir}/unused.sqlite3",
        database_url=database_url,
        redis_url=redis_url,
        H2H_TAP_RATE="0",
    )
    manage(env, "migrate", "--noinput")
    players = make_players(env, 2, prefix="twin")
    pair = [Server(env, log_path=f"{workdir}/daphne-{n}.log").start() for n in (1, 2)]
    yield pair, players, env
    for server in pair:
        server.stop()


def winnable(env: dict) -> tuple[str, list]:
    key = env.get("H2H_DEAL_KEY") or engine.DEFAULT_DEAL_KEY
    for seed in range(1000, 2000):
        code = engine.format_code("N", seed)
        plan = engine.solve(code, key=key)
        if plan:
            return code, plan
    raise AssertionError("no winnable code")


def new_room(env: dict, player: str, code: str) -> str:
    script = (
        "from django.contrib.auth import get_user_model; "
        "from game.realtime.races import race_create; "
        f"print(race_create(player=get_user_model().objects.get(username={player!r}), "
        f"code={code!r}).room)"
    )
    return manage(env, "shell", "-c", script).strip().splitlines()[-1]


class Socket:
    """A JSON websocket on one server, as a browser of that origin opens it."""

    def __init__(self, server: Server, path: str, sessionid: str | None = None) -> None:
        self.server, self.path, self.sessionid = server, path, sessionid

    async def __aenter__(self) -> "Socket":
        headers = {"Cookie": f"sessionid={self.sessionid}"} if self.sessionid else {}
        self.ws = await websockets.connect(
            self.server.ws_url(self.path), origin=self.server.origin, additional_headers=headers
        )
        return self

    async def __aexit__(self, *exc) -> None:
        await self.ws.close()

    async def send(self, frame: dict) -> None:
        await self.ws.send(json.dumps(frame))

    async def next(self, kind: str, until=lambda frame: True) -> dict:
        """The next frame of type `kind` that satisfies `until`, skipping the others."""
        async with asyncio.timeout(TIMEOUT):
            while True:
                frame = json.loads(await self.ws.recv())
                if frame["type"] == kind and until(frame):
                    return frame


async def winner_seen(room: Socket) -> tuple[dict, dict]:
    """The rival's last progress frame and the room frame that both show the winner (the room
    frame is sent on commit, the progress after the reply: either may come first)."""
    progress = won = None
    async with asyncio.timeout(TIMEOUT):
        while progress is None or won is None:
            frame = json.loads(await room.ws.recv())
            if frame["type"] == "progress" and frame["status"] == "won":
                progress = frame
            elif frame["type"] == "room" and frame["entries"][0]["status"] == "won":
                won = frame
    return progress, won


async def race_across_processes(servers, code: str, plan: list, room: str) -> dict:
    (one, two), (ana, ben) = servers
    async with (
        Socket(two, f"/ws/live/deal/{code}/") as board,
        Socket(two, "/ws/live/home/") as home,
        Socket(one, f"/ws/race/{room}/", ana["sessionid"]) as ana_room,
        Socket(two, f"/ws/race/{room}/", ben["sessionid"]) as ben_room,
    ):
        assert (await board.next("board"))["version"] == 0
        assert (await home.next("presence"))["playing"] == 0
        await ben_room.send({"type": "join"})
        await ana_room.next("room", lambda f: len(f["entries"]) == 2)  # heard from process two
        for socket in (ana_room, ben_room):
            await socket.send({"type": "ready", "ready": True})
        started = await ben_room.next("room", lambda f: f["started"] and f["code"])
        assert started["code"] == code
        async with Socket(one, f"/ws/play/{code}/", ana["sessionid"]) as ana_board:
            greeting = await ana_board.next("state")
            assert greeting["game"]["ranked"] is False
            counted = await home.next("presence", lambda f: f["playing"] == 1)
            for seq, action in enumerate(plan, start=1):
                await ana_board.send({"type": "tap", "seq": seq, "target": action})
                await ana_board.next("state")
            progress, won = await winner_seen(ben_room)
            update = await board.next("update")
        return {"counted": counted, "progress": progress, "won": won, "update": update}


def test_a_finish_on_one_process_reaches_a_board_and_a_rival_on_the_other(servers):
    pair, players, env = servers
    code, plan = winnable(env)
    room = new_room(env, players[0]["name"], code)
    seen = run_async(race_across_processes((pair, players), code, plan, room))
    assert seen["progress"] | {"heart_left": 0, "score": 250} == seen["progress"]
    winner = seen["won"]["entries"][0]
    assert (winner["name"], winner["place"], winner["status"]) == ("twin0", 1, "won")
    update = seen["update"]
    assert update["version"] == 1
    assert (update["row"]["player"], update["row"]["won"]) == ("twin0", True)


async def spectator_opens_the_deal_elsewhere(servers, code: str) -> dict:
    """Ben watches Ana's game through process two, then opens its deal through process one."""
    (one, two), (ana, ben) = servers
    async with Socket(one, f"/ws/play/{code}/", ana["sessionid"]) as ana_board:
        game_id = (await ana_board.next("state"))["game"]["id"]
        async with Socket(two, f"/ws/watch/{game_id}/", ben["sessionid"]) as watcher:
            await watcher.next("state")
            await ana_board.next("watchers")  # Ben is counted: in the game's group by now
            opened = time.monotonic()
            async with Socket(one, f"/ws/play/{code}/", ben["sessionid"]) as ben_board:
                assert (await ben_board.next("state"))["game"]["id"] != game_id
                error = await watcher.next("error")
                async with asyncio.timeout(TIMEOUT):
                    with pytest.raises(websockets.ConnectionClosed) as closed:
                        while True:  # anything after the error frame would be a leak
                            assert json.loads(await watcher.ws.recv())["type"] == "watchers"
                closed_after = time.monotonic() - opened
    return {"error": error["error"], "code": closed.value.rcvd.code, "seconds": closed_after}


def test_a_spectator_who_opens_the_deal_on_another_process_stops_watching(servers):
    pair, players, _ = servers
    code = engine.format_code("N", 3000)  # a deal no other test here plays
    seen = run_async(spectator_opens_the_deal_elsewhere((pair, players), code))
    assert (seen["error"], seen["code"]) == ("playing_this_deal", 4003)
    assert seen["seconds"] < 2, seen
