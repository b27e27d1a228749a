"""A real Redis stopped and started under a real daphne (tests/harness/redis_outage.py, short):
players' taps are answered throughout, nothing closes with 1011, other tabs and spectators hear
moves again within 5 s of Redis returning, nobody is locked out; and a session that ended while
Redis was down closes its sockets once Redis is back.

Each test starts a redis-server of its own on a free port, so it needs no service of the
machine's: outside CI it is skipped if `redis-server` is not installed. Marked slow (half a
minute), it runs in the suite's first pass only.
"""

import json
import shutil
import tempfile
import time

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from game.sockets.base import CLOSE_LOGGED_OUT
from tests.conftest import IN_CI
from tests.harness.redis_outage import outage_run
from tests.harness.redis_server import Redis
from tests.harness.server import Server, make_players, manage, server_env
from tests.system.conftest import in_thread

if shutil.which("redis-server") is None and not IN_CI:
    pytest.skip("needs redis-server (Debian's redis-server package)", allow_module_level=True)

pytestmark = pytest.mark.slow


def test_players_play_on_through_a_redis_outage_and_everything_recovers_within_5_s():
    figures = in_thread(outage_run, players=5, outage=5, before=3, after=6)
    during = figures["taps"]["outage"]
    assert during["sent"] >= 20 and during["ratio"] >= 0.95, figures
    assert figures["closes_1011"] == 0 and figures["handshakes_failed"] == {}, figures
    assert set(figures["closes"]) <= {"4013"}, figures  # only live pages, told to wait
    assert figures["second_tabs_hearing_again"] == "5 of 5", figures
    assert figures["spectators_seeing_again"] == "5 of 5", figures
    assert max(figures["recovered_after_s"].values()) < 5, figures
    assert figures["players_locked_out"] == 0, figures
    assert figures["taps"]["after"]["ratio"] == 1.0, figures


@pytest.fixture
def outage_server():
    """A daphne on SQLite whose channel layer is a Redis of its own, and one logged-in player."""
    redis = Redis().start()
    workdir = tempfile.mkdtemp(prefix="h2h-redis-logout-")
    env = server_env(sqlite_path=f"{workdir}/db.sqlite3", redis_url=redis.url)
    manage(env, "migrate", "--noinput")
    players = make_players(env, 1, prefix="gone")
    server = Server(env, log_path=f"{workdir}/daphne.log").start()
    yield server, redis, env, players[0]
    server.stop()
    redis.stop()


def test_a_session_ended_while_redis_was_down_closes_its_socket_once_redis_is_back(outage_server):
    server, redis, env, player = outage_server
    headers = {"Cookie": f"sessionid={player['sessionid']}", "Origin": server.origin}
    with connect(server.ws_url("/ws/play/HH1-N-AAAAAAC/"), additional_headers=headers) as socket:
        assert json.loads(socket.recv(timeout=5))["type"] == "state"
        redis.stop()
        socket.send(json.dumps({"type": "tap", "seq": 1, "target": "stock"}))
        assert json.loads(socket.recv(timeout=2))["seq"] == 1  # played on
        # The logout's word to the sockets is lost with Redis down; the session is gone.
        ended = f"Session.objects.filter(session_key={player['sessionid']!r}).delete()"
        manage(env, "shell", "-c", f"from django.contrib.sessions.models import Session; {ended}")
        redis.start()
        started = time.monotonic()
        while True:  # the resync, if it comes first, then the close
            try:
                socket.recv(timeout=3)
            except (ConnectionClosed, TimeoutError):
                break
        assert socket.close_code == CLOSE_LOGGED_OUT
        assert time.monotonic() - started < 2
