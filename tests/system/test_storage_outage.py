"""A real daphne on PostgreSQL whose database refuses writes for a few seconds, then takes them
again: every move made meanwhile is answered `storage_unavailable` on a socket that stays
open, and the same seq sent again with a back-off, as the board does, is stored once."""

import asyncio
import json
import os
import secrets
import tempfile

import psycopg
import pytest
import websockets

from game import engine
from tests.harness.server import Server, make_players, manage, name_and_admin, server_env
from tests.system.conftest import run_async, with_path

pytestmark = pytest.mark.postgres

PLAYERS = 3
REFUSED_FOR_S = 3.0
CODE = engine.format_code("N", 7)


@pytest.fixture(scope="module")
def database_url():
    """A fresh PostgreSQL database of the test's own, dropped afterwards."""
    url = with_path(os.environ["H2H_DATABASE_URL"], f"/h2h_outage_{secrets.token_hex(4)}")
    name, admin = name_and_admin(url)
    with psycopg.connect(admin, autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')
    yield url
    with psycopg.connect(admin, autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(scope="module")
def server(database_url):
    """One production daphne on that database (the in-memory channel layer), and its players."""
    workdir = tempfile.mkdtemp(prefix="h2h-outage-")
    env = server_env(sqlite_path=f"{workdir}/unused.sqlite3", database_url=database_url)
    manage(env, "migrate", "--noinput")
    players = make_players(env, PLAYERS, prefix="outage")
    daphne = Server(env, log_path=f"{workdir}/daphne.log").start()
    yield daphne, players
    daphne.stop()


def read_only(database_url: str, on: bool) -> None:
    """Make the database refuse writes, or take them again, as an operator would: every
    session opened from now on is read-only or not, and those open now are ended."""
    name, admin = name_and_admin(database_url)
    change = (
        "SET default_transaction_read_only = on" if on else "RESET default_transaction_read_only"
    )
    with psycopg.connect(admin, autocommit=True) as connection:
        connection.execute(f'ALTER DATABASE "{name}" {change}')
        connection.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = %s AND pid <> pg_backend_pid()",
            [name],
        )


class Player:
    """One player's play socket, answering each frame it sends (the same seq, until stored)."""

    def __init__(self, server: Server, sessionid: str) -> None:
        self.server, self.sessionid, self.seq, self.answers = server, sessionid, 0, []

    async def open(self) -> dict:
        self.ws = await websockets.connect(
            self.server.ws_url(f"/ws/play/{CODE}/"),
            origin=self.server.origin,
            additional_headers={"Cookie": f"sessionid={self.sessionid}"},
        )
        greeting = await self.answer()
        self.seq = greeting["game"]["last_seq"]
        return greeting

    async def answer(self) -> dict:
        async with asyncio.timeout(10):
            while (frame := json.loads(await self.ws.recv()))["type"] == "watchers":
                pass
        self.answers.append(frame)
        return frame

    async def draw(self) -> dict:
        """A draw with the next seq, once."""
        self.seq += 1
        return await self.again()

    async def again(self) -> dict:
        await self.ws.send(json.dumps({"type": "tap", "seq": self.seq, "target": "stock"}))
        return await self.answer()

    async def until_stored(self) -> tuple[dict, int]:
        """The same seq again with the board's back-off (0.25 s doubling to 4 s) until stored:
        the answer, and how many times it was sent."""
        delay, sends = 0.25, 1
        while (frame := await self.again())["type"] == "error":
            assert frame["error"] == "storage_unavailable" and frame["seq"] == self.seq
            await asyncio.sleep(delay)
            delay, sends = min(delay * 2, 4.0), sends + 1
        return frame, sends


async def outage(server: Server, players: list[dict], database_url: str) -> list[Player]:
    sockets = [Player(server, player["sessionid"]) for player in players]
    for player in sockets:
        await player.open()
        assert (await player.draw())["event"] == "draw"
    await asyncio.to_thread(read_only, database_url, True)
    refused = [await player.draw() for player in sockets]
    assert {(f["type"], f["error"]) for f in refused} == {("error", "storage_unavailable")}
    for _ in range(int(REFUSED_FOR_S / 0.5)):  # the socket stays open, and says so each time
        await asyncio.sleep(0.5)
        for player in sockets:
            assert (await player.again())["error"] == "storage_unavailable"
    await asyncio.to_thread(read_only, database_url, False)
    for player in sockets:
        stored, sends = await player.until_stored()
        assert (stored["seq"], stored["event"], stored["game"]["last_seq"]) == (2, "draw", 2)
        # The first write after the restart may meet a connection that died with it, and then
        # every other is tested: not one failed move for each of them.
        assert sends <= 3
        assert (await player.draw())["event"] == "draw"
    for player in sockets:
        assert player.ws.close_code is None  # never closed, let alone with 1011
        await player.ws.close()
    return sockets


def stored_logs(database_url: str) -> list[tuple]:
    with psycopg.connect(database_url) as connection:
        return connection.execute(
            "SELECT g.last_seq, g.action_count, array_agg(a.action ORDER BY a.index)"
            " FROM game_game g JOIN game_action a ON a.game_id = g.id"
            " GROUP BY g.id ORDER BY g.id"
        ).fetchall()


def test_moves_refused_by_a_read_only_database_are_stored_once_when_sent_again(
    server, database_url
):
    daphne, players = server
    run_async(outage(daphne, players, database_url))
    assert stored_logs(database_url) == [(3, 3, ["stock"] * 3)] * PLAYERS
