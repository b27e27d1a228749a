"""Two daphne processes sharing one Redis and one PostgreSQL: a game finished on one reaches a
leaderboard socket and a race opponent connected to the other, and presence counts both; a
password changed on one closes the player's other sessions' sockets on both, and a
deal opened on one closes its spectator's watch socket on the other.

Each process has its own memory, so only the channel layer (Redis) and the database can carry
anything between them: exactly what a deployment behind a proxy relies on.
"""

import asyncio
import http.client
import json
import re
import tempfile
import time
from urllib.parse import urlencode

import pytest
import websockets

from game import engine
from tests.harness.server import Server, make_players, manage, server_env
from tests.system.conftest import run_async, scaled_services, winnable

pytestmark = [pytest.mark.postgres, pytest.mark.redis]

REDIS_DB = 11  # a database number no other test uses
TIMEOUT = 10


@pytest.fixture(scope="module")
def scaled():
    """(database_url, redis_url): a fresh PostgreSQL database and an empty Redis database."""
    with scaled_services("h2h_two_processes", REDIS_DB) as urls:
        yield urls


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


def new_room(env: dict, player: str, code: str) -> str:
    script = (
        "from django.contrib.auth import get_user_model; "
        "from game.services.races import race_create; "
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


# A password change on one process closes the other sessions' sockets on both ---------------

PASSWORD, NEW_PASSWORD = "heart-shaped-42", "a-new-heart-77"


def player_with_two_sessions(env: dict, name: str) -> list[str]:
    """A player with a password and two logged-in sessions (two devices): their keys."""
    script = (
        "import json; from django.contrib.auth import get_user_model; "
        "from tests.harness.players import session_for; from game.models import Profile; "
        f"user = get_user_model().objects.create_user({name!r}, password={PASSWORD!r}); "
        f"Profile.objects.create(user=user, display_name={name!r}); "
        "print(json.dumps([session_for(user), session_for(user)]))"
    )
    return json.loads(manage(env, "shell", "-c", script).strip().splitlines()[-1])


def page(server: Server, method: str, path: str, cookies: str, body: str = ""):
    """(status, headers, text) of one request to the server, as the site's own page sends it."""
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=TIMEOUT)
    headers = {"Cookie": cookies, "Origin": server.origin}
    if body:
        headers["Content-Type"] = "application/x-www-form-urlencoded"
    connection.request(method, path, body=body, headers=headers)
    response = connection.getresponse()
    return response.status, response.headers, response.read().decode()


def change_password(server: Server, sessionid: str) -> str:
    """Change the password through its page; the session's new key (update_session_auth_hash)."""
    path = "/accounts/password_change/"
    status, headers, form = page(server, "GET", path, f"sessionid={sessionid}")
    assert status == 200, status
    csrf = re.search(r"csrftoken=([^;]+)", cookies_set(headers)).group(1)
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', form).group(1)
    fields = {"oldpassword": PASSWORD, "password1": NEW_PASSWORD}
    body = urlencode({**fields, "password2": NEW_PASSWORD, "csrfmiddlewaretoken": token})
    cookies = f"sessionid={sessionid}; csrftoken={csrf}"
    status, headers, _ = page(server, "POST", path, cookies, body)
    assert status == 302, status
    return re.search(r"sessionid=([^;]+)", cookies_set(headers)).group(1)


def cookies_set(headers) -> str:
    return "; ".join(headers.get_all("Set-Cookie") or [])


async def closed_with(socket: Socket, within: float) -> int | None:
    """The code the server closed the socket with within `within` seconds; None if still open."""
    try:
        async with asyncio.timeout(within):
            async for _ in socket.ws:
                pass
    except TimeoutError:
        return None
    except websockets.ConnectionClosed:
        pass
    return socket.ws.close_code


async def password_change_across_processes(pair, env) -> dict:
    one, two = pair
    a, b = player_with_two_sessions(env, "turnkey")
    async with (
        Socket(two, "/ws/play/HH1-N-AAAAAAC/", a) as a_board,
        Socket(one, "/ws/play/HH1-N-AAAAAAC/", b) as b_board,
        Socket(two, "/ws/play/HH1-N-AAAAAAC/", b) as b_phone,
    ):
        for socket in (a_board, b_board, b_phone):
            await socket.next("state")
        a_renamed = await asyncio.to_thread(change_password, one, a)
        changed = time.monotonic()  # the answer comes once the change is stored and told
        closed = [await closed_with(s, within=2) for s in (b_board, b_phone)]
        took = time.monotonic() - changed
        a_open = await closed_with(a_board, within=0.5) is None
    return {"closed": closed, "took": took, "a_open": a_open, "a_renamed": a_renamed, "b": b}


def test_a_password_change_on_one_process_closes_other_sessions_sockets_on_both(
    servers, static_collected
):
    pair, _, env = servers
    seen = run_async(password_change_across_processes(pair, env))
    print(f"the other session's sockets closed {seen['took'] * 1000:.0f} ms after the change")
    assert seen["closed"] == [4001, 4001] and seen["took"] < 2
    assert seen["a_open"]
    _, two = pair
    assert page(two, "GET", "/accounts/profile/", f"sessionid={seen['a_renamed']}")[0] == 200
    assert page(two, "GET", "/accounts/profile/", f"sessionid={seen['b']}")[0] == 302


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
