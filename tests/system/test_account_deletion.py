"""Deleting an account on a real daphne: the account's sockets close on every device, its
sessions log nobody in, and another player's game goes on move after move."""

import contextlib
import json

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from game.sockets.base import CLOSE_LOGGED_OUT
from tests.harness.pages import delete_account
from tests.harness.server import Server, make_players, manage, server_env

pytestmark = pytest.mark.slow

CODE = "HH1-N-AAAAAAC"
PASSWORD = "a-long-password-for-the-deletion-test"
SET_PASSWORD = (
    "from django.contrib.auth import get_user_model; "
    "u = get_user_model().objects.get(username='leaving0'); "
    f"u.set_password({PASSWORD!r}); u.save()"
)


@pytest.fixture
def site(tmp_path, static_collected):
    """(server, leaving's two sessions, staying's session) on a SQLite file of its own."""
    env = server_env(sqlite_path=str(tmp_path / "db.sqlite3"))
    manage(env, "migrate", "--noinput")
    make_players(env, 1, prefix="leaving")
    manage(env, "shell", "-c", SET_PASSWORD)  # which ends the session made with the account
    [laptop] = make_players(env, 1, prefix="leaving")
    [phone] = make_players(env, 1, prefix="leaving")  # the same account, a second session
    [staying] = make_players(env, 1, prefix="staying")
    with Server(env, log_path=str(tmp_path / "daphne.log")) as server:
        yield server, [laptop["sessionid"], phone["sessionid"]], staying["sessionid"]


def play_socket(server, sessionid: str):
    cookie = {"Cookie": f"sessionid={sessionid}"}
    url = server.ws_url(f"/ws/play/{CODE}/")
    return connect(url, origin=server.origin, additional_headers=cookie, open_timeout=5)


def tap(ws, seq: int) -> dict:
    ws.send(json.dumps({"type": "tap", "seq": seq, "target": "stock"}))
    return json.loads(ws.recv(timeout=5))


def test_a_deleted_accounts_sockets_close_and_another_players_game_goes_on(site):
    server, leaving, staying = site
    with contextlib.ExitStack() as stack:
        devices = [stack.enter_context(play_socket(server, key)) for key in leaving]
        theirs = stack.enter_context(play_socket(server, staying))
        for ws in [*devices, theirs]:
            assert json.loads(ws.recv(timeout=5))["type"] == "state"
        assert tap(theirs, 1)["event"] == "draw"
        assert delete_account(server, leaving[0], PASSWORD) == 302
        for ws in devices:
            with pytest.raises(ConnectionClosed) as closed:
                ws.recv(timeout=2)
            assert closed.value.rcvd.code == CLOSE_LOGGED_OUT
        assert [tap(theirs, seq)["event"] for seq in (2, 3)] == ["draw", "draw"]
    for key in leaving:  # neither device's session logs anyone in
        with play_socket(server, key) as ws:
            assert json.loads(ws.recv(timeout=5))["error"] == "login_required"
