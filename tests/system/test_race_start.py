"""Eight racers on two daphne processes sharing one PostgreSQL and one Redis: each process
times the race's start for its own sockets, and the race begins once, every racer with one
game whose clock starts at the room's instant."""

import asyncio
import json
import tempfile

import pytest
import websockets

from tests.harness.server import Server, make_players, manage, server_env
from tests.system.conftest import run_async, scaled_services

pytestmark = [pytest.mark.postgres, pytest.mark.redis]

REDIS_DB = 8  # a database number no other test uses
RACERS = 8
TIMEOUT = 10


@pytest.fixture(scope="module")
def servers():
    """Two servers over one fresh database and channel layer, and eight logged-in players."""
    with scaled_services("h2h_race", REDIS_DB) as (database_url, redis_url):
        workdir = tempfile.mkdtemp(prefix="h2h-race-")
        env = server_env(
            sqlite_path=f"{workdir}/unused.sqlite3", database_url=database_url, redis_url=redis_url
        )
        manage(env, "migrate", "--noinput")
        players = make_players(env, RACERS, prefix="racer")
        pair = [Server(env, log_path=f"{workdir}/daphne-{n}.log").start() for n in (1, 2)]
        yield pair, players, env
        for server in pair:
            server.stop()


def shell(env: dict, script: str):
    """What `script` prints as JSON on its last line, run by the servers' manage.py shell."""
    return json.loads(manage(env, "shell", "-c", script).strip().splitlines()[-1])


def new_room(env: dict, player: str) -> str:
    return shell(
        env,
        "import json; from django.contrib.auth import get_user_model; "
        "from game.services.races import race_create; "
        f"print(json.dumps(race_create(player=get_user_model().objects.get(username={player!r}))"
        ".room))",
    )


def games_of_the_deal(env: dict, room: str) -> list[dict]:
    """Every game of the room's deal: its player, status, and whether it started at the room's
    instant."""
    return shell(
        env,
        "import json; from game.models import Game, RaceRoom; "
        f"room = RaceRoom.objects.get(room={room!r}); "
        "print(json.dumps([{'player': g.player.username, 'status': g.status, "
        "'at_the_instant': g.started_at == room.starts_at} "
        "for g in Game.objects.filter(code=room.code)]))",
    )


async def room_frame(socket, done) -> dict:
    """The socket's next room frame that satisfies `done`, skipping every other frame."""
    async with asyncio.timeout(TIMEOUT):
        while True:
            frame = json.loads(await socket.recv())
            if frame["type"] == "room" and done(frame):
                return frame


async def racer_socket(server: Server, room: str, sessionid: str):
    socket = await websockets.connect(
        server.ws_url(f"/ws/race/{room}/"),
        origin=server.origin,
        additional_headers={"Cookie": f"sessionid={sessionid}"},
    )
    await room_frame(socket, lambda frame: True)
    return socket


async def race_on_two_processes(pair, players, room: str) -> dict:
    """The racers alternate between the servers, join and get ready; each socket's first room
    frame with every racer's game, and the countdown's frame."""
    sockets = [
        await racer_socket(pair[n % 2], room, player["sessionid"])
        for n, player in enumerate(players)
    ]
    try:
        for socket in sockets[1:]:
            await socket.send(json.dumps({"type": "join"}))
        await room_frame(sockets[0], lambda f: len(f["entries"]) == RACERS)
        for socket in sockets:
            await socket.send(json.dumps({"type": "ready", "ready": True}))
        counting = await room_frame(sockets[0], lambda f: f["status"] == "running")
        begun = [
            await room_frame(socket, lambda f: all(e["game"] for e in f["entries"]))
            for socket in sockets
        ]
    finally:
        for socket in sockets:
            await socket.close()
    return {"counting": counting, "begun": begun}


def test_eight_racers_on_two_processes_see_their_race_begin_once(servers):
    pair, players, env = servers
    room = new_room(env, players[0]["name"])
    seen = run_async(race_on_two_processes(pair, players, room))
    counting, begun = seen["counting"], seen["begun"]
    assert not any(entry["game"] for entry in counting["entries"])
    games = [{e["name"]: e["game"] for e in frame["entries"]} for frame in begun]
    assert all(mapping == games[0] for mapping in games)  # the same games on both processes
    assert len(set(games[0].values())) == RACERS
    assert {frame["version"] for frame in begun} == {counting["version"] + 1}  # one change
    stored = games_of_the_deal(env, room)
    assert sorted(game["player"] for game in stored) == sorted(p["name"] for p in players)
    assert all(game["status"] == "open" and game["at_the_instant"] for game in stored)
