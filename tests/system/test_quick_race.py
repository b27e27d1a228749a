"""The quick race on two daphne processes sharing one PostgreSQL and one Redis: two players
queued on different processes are matched into one room that starts by itself, and a player
whose process was killed (it runs no disconnect) drops out of the queue within seconds and is
never matched."""

import asyncio
import json
import tempfile
import time

import pytest
import websockets

from tests.harness.server import Server, make_players, manage, server_env
from tests.system.conftest import run_async, scaled_services

pytestmark = [pytest.mark.postgres, pytest.mark.redis]

REDIS_DB = 14  # a database number no other test uses
TIMEOUT = 15
LEASE_S = 6  # services.quick.LEASE


@pytest.fixture(scope="module")
def site():
    """Two servers over the same database and channel layer, their environment, and players."""
    with scaled_services("h2h_quick", REDIS_DB) as (database_url, redis_url):
        workdir = tempfile.mkdtemp(prefix="h2h-quick-")
        env = server_env(
            sqlite_path=f"{workdir}/unused.sqlite3", database_url=database_url, redis_url=redis_url
        )
        manage(env, "migrate", "--noinput")
        players = make_players(env, 4, prefix="quick")
        pair = [Server(env, log_path=f"{workdir}/daphne-{n}.log").start() for n in (1, 2)]
        yield pair, players, env, workdir
        for server in pair:
            server.stop()


async def queue_socket(server: Server, player: dict):
    return await websockets.connect(
        server.ws_url("/ws/race/quick/"),
        origin=server.origin,
        additional_headers={"Cookie": f"sessionid={player['sessionid']}"},
    )


async def next_frame(ws, kind: str, timeout: float = TIMEOUT) -> dict:
    async with asyncio.timeout(timeout):
        while True:
            frame = json.loads(await ws.recv())
            if frame["type"] == kind:
                return frame


async def matched_across_processes(pair, players) -> list[dict]:
    one, two = pair
    ann = await queue_socket(one, players[0])
    await next_frame(ann, "queued")
    bea = await queue_socket(two, players[1])
    found = [await next_frame(ws, "matched") for ws in (ann, bea)]
    room = found[0]["room"]
    async with websockets.connect(two.ws_url(f"/ws/race/{room}/"), origin=two.origin) as follow:
        started = await next_frame_until(follow, lambda f: f["started"], timeout=TIMEOUT)
    for ws in (ann, bea):
        await ws.close()
    return [*found, started]


async def next_frame_until(ws, done, timeout: float) -> dict:
    async with asyncio.timeout(timeout):
        while True:
            frame = json.loads(await ws.recv())
            if frame["type"] == "room" and done(frame):
                return frame


def test_two_players_on_two_processes_are_matched_and_their_race_starts_by_itself(site):
    pair, players, _, _ = site
    ann, bea, started = run_async(matched_across_processes(pair, players))
    assert ann == bea and ann["url"] == f"/race/{ann['room']}/"
    assert started["quick"] and len(started["entries"]) == 2
    assert all(entry["game"] for entry in started["entries"])  # no Ready: it began itself


async def queued_on_a_process_then_killed(server: Server, player: dict) -> None:
    ws = await queue_socket(server, player)
    assert (await next_frame(ws, "queued"))["waiting"] == 1
    server.kill()


async def alone_after_the_lease(server: Server, player: dict) -> tuple[dict, bool]:
    ws = await queue_socket(server, player)
    queued = await next_frame(ws, "queued")
    try:
        await next_frame(ws, "matched", timeout=3)
        matched = True
    except TimeoutError:
        matched = False
    await ws.close()
    return queued, matched


def test_a_player_whose_process_was_killed_leaves_the_queue_and_is_never_matched(site):
    pair, players, env, workdir = site
    doomed = Server(env, log_path=f"{workdir}/daphne-doomed.log").start()
    run_async(queued_on_a_process_then_killed(doomed, players[2]))
    time.sleep(LEASE_S + 1)  # nobody renews the lease now
    queued, matched = run_async(alone_after_the_lease(pair[1], players[3]))
    assert queued["waiting"] == 1 and not matched
