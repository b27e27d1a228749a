"""Sessions and origins: only a logged-in player's own game from the site's own pages.

Refused: no login, a forged session, a foreign, look-alike, `null` or missing Origin, a wrong
Host, another player's game. Logging out closes that session's sockets within 2 s; logout is
POST-only and every form carries a CSRF token.
"""

import http.client
import os
import re
import socket
import time

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import AsyncClient, Client
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect

from game.models import Game
from game.sockets.base import CLOSE_LOGGED_OUT
from h2h_site.asgi import application
from tests.harness.server import Server, make_players, manage, server_env
from tests.site import ORIGIN, game_log, open_socket, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)

CODE = "HH1-N-AAAAAAC"


async def greeting(cookie, *, origin=ORIGIN, host=b"testserver"):
    """The first frame a socket gets, or None if its handshake was refused."""
    cookie = cookie.encode() if cookie else None
    sent = ((b"origin", origin), (b"host", host), (b"cookie", cookie))
    headers = [(name, value) for name, value in sent if value is not None]
    communicator = WebsocketCommunicator(application, f"/ws/play/{CODE}/", headers=headers)
    connected, _ = await communicator.connect()
    if not connected:
        return None
    frame = await communicator.receive_json_from()
    await communicator.disconnect()
    return frame


async def test_the_sites_own_origin_is_accepted(player_cookie):
    frame = await greeting(player_cookie)
    assert frame["type"] == "state"


@pytest.mark.parametrize(
    "origin",
    [
        b"https://evil.example",  # foreign
        b"http://testserver.evil.example",  # look-alike: the site's name as a subdomain
        b"http://evil-testserver",  # look-alike: the site's name inside another
        b"http://testserver:8080",  # the site's host on another port
        b"http://testserver@evil.example",  # user-info trick
        b"ftp://testserver",  # not a web origin
        b"null",  # sandboxed frames, file: pages
        b"",
        b"\xff\xfe",
    ],
)
async def test_a_foreign_look_alike_or_null_origin_is_refused(player_cookie, origin):
    assert await greeting(player_cookie, origin=origin) is None
    assert not await database_sync_to_async(Game.objects.exists)()


async def test_a_missing_origin_is_refused(player_cookie):
    assert await greeting(player_cookie, origin=None) is None


@pytest.mark.parametrize("host", [b"evil.example", b"testserver.evil.example", b"127.0.0.2"])
async def test_a_wrong_host_is_refused_even_with_a_matching_origin(player_cookie, host):
    assert await greeting(player_cookie, origin=b"http://" + host, host=host) is None


async def test_no_login_is_told_and_closed():
    frame = await greeting(None)
    assert frame["error"] == "login_required"


@pytest.mark.parametrize(
    "cookie",
    [
        "sessionid=forgedforgedforgedforgedforged12",
        "sessionid=",
        "sessionid=" + "x" * 5000,
        "sessionid=../../etc/passwd",
    ],
)
async def test_a_forged_session_is_treated_as_no_login(player, cookie):
    frame = await greeting(cookie)
    assert frame["error"] == "login_required"
    assert not await database_sync_to_async(Game.objects.exists)()


def change_password(user) -> None:
    user.set_password("a new password, elsewhere")
    user.save()


async def test_a_session_from_before_a_password_change_is_treated_as_no_login(player):
    cookie = await database_sync_to_async(session_cookie)(player)
    assert (await greeting(cookie))["type"] == "state"
    await database_sync_to_async(change_password)(player)
    assert (await greeting(cookie))["error"] == "login_required"


async def test_a_socket_only_ever_opens_the_players_own_game(player_cookie, rival_cookie):
    theirs = await open_socket(application, CODE, rival_cookie)
    their_game = (await theirs.receive_json_from())["game"]["id"]
    mine = await open_socket(application, CODE, player_cookie)
    my_first = await mine.receive_json_from()
    assert my_first["game"]["id"] != their_game
    # No frame names a game: a game id smuggled into one is ignored.
    await mine.send_json_to({"type": "tap", "seq": 1, "target": "stock", "game": their_game})
    assert (await mine.receive_json_from())["event"] == "draw"
    assert await game_log(their_game) == (0, 0, [])
    await mine.disconnect()
    await theirs.disconnect()


def test_ending_another_players_game_is_forbidden(player, rival):
    theirs = Client()
    theirs.force_login(rival)
    theirs.get(f"/play/{CODE}/")
    game = Game.objects.get(player=rival)
    mine = Client()
    mine.force_login(player)
    response = mine.post("/play/new/", {"ending": game.pk})
    assert response.status_code == 403
    game.refresh_from_db()
    assert game.status == Game.Status.OPEN


# Logging out ----------------------------------------------------------------------------


async def test_logging_out_closes_that_sessions_sockets_within_two_seconds(player):
    cookie = await database_sync_to_async(session_cookie)(player)
    other_device = await database_sync_to_async(session_cookie)(player)
    tabs = [await open_socket(application, CODE, cookie) for _ in range(2)]
    phone = await open_socket(application, CODE, other_device)
    for tab in [*tabs, phone]:
        assert tab.connected and (await tab.receive_json_from())["type"] == "state"
    client = AsyncClient()
    client.cookies.load(cookie)
    started = time.monotonic()
    assert (await client.post("/accounts/logout/")).status_code == 302
    for tab in tabs:
        assert (await tab.receive_output(timeout=2))["code"] == CLOSE_LOGGED_OUT
    assert time.monotonic() - started < 2
    assert await phone.receive_nothing(timeout=0.3)  # another device's session stays
    again = await open_socket(application, CODE, cookie)
    assert (await again.receive_json_from())["error"] == "login_required"
    for socket_ in [*tabs, phone]:
        await socket_.disconnect()


def test_logout_is_post_only(player):
    client = Client()
    client.force_login(player)
    assert client.get("/accounts/logout/").status_code == 405
    assert client.get("/").wsgi_request.user.is_authenticated


# CSRF ---------------------------------------------------------------------------------

FORM = re.compile(r"<form\b[^>]*>.*?</form>", re.S | re.I)


def post_forms(html: str) -> list[tuple[str, str]]:
    """(action, form html) of every POST form on a page."""
    forms = []
    for form in FORM.findall(html):
        head = form[: form.index(">")]
        if re.search(r'method="post"', head, re.I):
            forms.append((re.search(r'action="([^"]*)"', head).group(1), form))
    return forms


def test_every_post_form_carries_a_csrf_token_and_is_refused_without_it(player, make_player):
    client = Client(enforce_csrf_checks=True)
    client.force_login(player)
    player_name = player.profile.display_name
    pages = [
        "/",
        "/daily/",
        f"/play/{CODE}/",
        "/accounts/profile/",
        "/accounts/password_change/",
        "/leaderboard/daily/",
        "/leaderboard/all-time/",
        f"/leaderboard/deal/{CODE}/",
        f"/players/{player_name}/",
    ]
    anonymous_pages = ["/accounts/login/", "/accounts/signup/"]
    forms = {}
    for path, browser in [(p, client) for p in pages] + [
        (p, Client(enforce_csrf_checks=True)) for p in anonymous_pages
    ]:
        response = browser.get(path, follow=True)
        assert response.status_code == 200, path
        for action, form in post_forms(response.content.decode()):
            assert 'name="csrfmiddlewaretoken"' in form, (path, action)
            forms[action] = browser
    expected = {"/accounts/logout/", "/i18n/setlang/", "/play/new/", "/accounts/profile/"}
    assert expected | {"/accounts/login/", "/accounts/signup/"} <= set(forms)
    for action, browser in forms.items():
        response = browser.post(action, {"username": "ann", "ending": "1"})
        assert response.status_code == 403, action
    assert client.get("/").wsgi_request.user.is_authenticated  # the logout was refused


# On a real daphne --------------------------------------------------------------------------


def real_socket(server, sessionid, *, origin, host=None):
    """A websocket to the real server; `host` overrides the Host header it is sent with."""
    port = server.port
    uri = f"ws://{host or f'127.0.0.1:{port}'}/ws/play/{CODE}/"
    sock = socket.create_connection(("127.0.0.1", port))
    headers = {"Cookie": f"sessionid={sessionid}"}
    return connect(uri, sock=sock, origin=origin, additional_headers=headers, open_timeout=5)


def test_daphne_refuses_bad_origins_and_hosts_before_the_handshake(daphne):
    server, players = daphne
    sessionid = players[0]["sessionid"]
    with real_socket(server, sessionid, origin=server.origin) as ws:
        assert '"type":"state"' in ws.recv(timeout=5).replace(" ", "")
    refused = [
        {"origin": "http://evil.example"},
        {"origin": f"http://127.0.0.1.evil.example:{server.port}"},
        {"origin": None},
        {"origin": "null"},
        {"origin": f"http://localhost:{server.port}", "host": f"evil.example:{server.port}"},
        {"origin": f"http://127.0.0.1:{server.port + 1}"},
    ]
    for case in refused:
        with pytest.raises(InvalidStatus) as refusal:
            real_socket(server, sessionid, **case)
        assert refusal.value.response.status_code == 403, case


def test_daphne_closes_a_forged_session_with_4001(daphne):
    server, _ = daphne
    with real_socket(server, "forged" * 6, origin=server.origin) as ws:
        assert "login_required" in ws.recv(timeout=5)
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=5)
    assert closed.value.rcvd.code == 4001


def test_daphne_answers_a_wrong_host_page_request_with_400(daphne):
    server, _ = daphne
    with socket.create_connection(("127.0.0.1", server.port)) as raw:
        raw.sendall(b"GET / HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n")
        assert raw.recv(64).startswith(b"HTTP/1.1 400")


REL_REDIS_URL = os.environ.get("H2H_REL_REDIS_URL", "redis://127.0.0.1:6379/5")


def request(server, method, path, sessionid, body="", headers=()):
    """(status, headers, text) of one request to the real server, logged in as `sessionid`."""
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    sent = {"Cookie": f"sessionid={sessionid}", **dict(headers)}
    connection.request(method, path, body=body, headers=sent)
    response = connection.getresponse()
    return response.status, response.headers, response.read().decode()


def log_out(server, sessionid) -> int:
    """Log out through the page's own form: its CSRF cookie and token, then the POST."""
    _, headers, page = request(server, "GET", "/accounts/profile/", sessionid)
    cookie = re.search(r"csrftoken=([^;]+)", headers["Set-Cookie"]).group(1)
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
    form = {
        "Content-Type": "application/x-www-form-urlencoded",
        "Cookie": f"sessionid={sessionid}; csrftoken={cookie}",
        "Origin": server.origin,
    }
    body = f"csrfmiddlewaretoken={token}"
    return request(server, "POST", "/accounts/logout/", sessionid, body, form)[0]


@pytest.mark.redis
def test_logging_out_on_one_process_closes_sockets_on_another_within_two_seconds(
    tmp_path, static_collected
):
    env = server_env(sqlite_path=str(tmp_path / "db.sqlite3"), redis_url=REL_REDIS_URL)
    manage(env, "migrate", "--noinput")
    (player,) = make_players(env, 1, prefix="logout")
    with Server(env) as pages, Server(env) as sockets_:
        with real_socket(sockets_, player["sessionid"], origin=sockets_.origin) as ws:
            assert '"state"' in ws.recv(timeout=5)
            started = time.monotonic()
            assert log_out(pages, player["sessionid"]) == 302
            with pytest.raises(ConnectionClosed) as closed:
                ws.recv(timeout=2)
        assert closed.value.rcvd.code == CLOSE_LOGGED_OUT
        assert time.monotonic() - started < 2
