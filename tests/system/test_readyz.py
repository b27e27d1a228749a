"""/readyz under load: a daphne on Redis answers every probe 200 within a second while its
sockets listen idle and while players play (bench.readyz measures the same at 30 players).

channels_redis lends a process's receive lock to one of its listening sockets until a message
comes for one of them; the channel layer's check, which waited for that lock, got no answer on
an idle process and seconds late under play. The Redis is a redis-server of the test's own.
"""

import contextlib
import os
import shutil
import tempfile

import pytest
import websockets

from tests.harness.readyz import ready, trial
from tests.harness.redis_server import Redis
from tests.harness.server import Server, make_players, manage, server_env
from tests.system.conftest import run_async

pytestmark = pytest.mark.redis

LISTENING = 4  # live boards open on the home page: they only listen
PLAYERS = 6
IDLE_S = 2.0
PLAY_S = 6.0


@pytest.fixture(scope="module")
def server():
    """One daphne on a SQLite file and a redis-server of its own, and the players."""
    if shutil.which("redis-server") is None:
        message = "needs redis-server (apt-get install redis-server)"
        if os.environ.get("CI"):
            pytest.fail(f"{message}: CI must run the probe's test under load, never skip it")
        pytest.skip(message)
    redis_server = Redis().start()
    workdir = tempfile.mkdtemp(prefix="h2h-readyz-")
    env = server_env(sqlite_path=f"{workdir}/db.sqlite3", redis_url=redis_server.url)
    manage(env, "migrate", "--noinput")
    players = make_players(env, PLAYERS, prefix="ready")
    daphne = Server(env, log_path=f"{workdir}/daphne.log").start()
    yield daphne, players
    daphne.stop()
    redis_server.stop()


async def probed(server: Server, players: list[dict]) -> tuple:
    """The probes with only the boards listening, then with the players playing too."""
    async with contextlib.AsyncExitStack() as stack:
        for _ in range(LISTENING):
            url = server.ws_url("/ws/live/home/")
            board = await stack.enter_async_context(websockets.connect(url, origin=server.origin))
            await board.recv()  # its snapshot: it is listening now
        idle, _ = await trial([server], [], seconds=IDLE_S)
        playing, _ = await trial([server], players, seconds=PLAY_S)
    return idle, playing


def test_readyz_answers_within_a_second_while_sockets_listen_and_play(server):
    idle, playing = run_async(probed(*server))
    assert playing.taps >= PLAYERS * PLAY_S  # a tap every 250-750 ms each: they played
    for run in (idle, playing):
        late = [probe for probe in run.probes if not ready(probe)]
        assert not late, late
        assert len(run.probes) >= 5
