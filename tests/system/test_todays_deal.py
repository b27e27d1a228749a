"""Today's deal against a real daphne, as a hostile visitor tries it: read today's code off the
public daily board, then ask for its cards by every route a visitor or a guest has. Every one
must answer without a card; the signed-in player's ranked game is the only way in until
midnight (docs/protocol.md, "The ranked daily"; docs/reliability.md, "Fair play")."""

import asyncio
import http.cookiejar
import json
import re
import urllib.error
import urllib.request

import pytest
import websockets
from websockets.exceptions import ConnectionClosed

from tests.system.conftest import run_async

REFUSED = {"en": "played once, by signed-in players", "ms": "dimainkan sekali, oleh pemain"}


class Browser:
    """A visitor's browser: its own cookies, a language, redirects followed."""

    def __init__(self, server, language: str = "en", sessionid: str | None = None) -> None:
        self.server, self.jar = server, http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))
        self.language, self.sessionid = language, sessionid

    def get(self, path: str) -> tuple[int, str]:
        cookies = [f"django_language={self.language}"]
        if self.sessionid:
            cookies.append(f"sessionid={self.sessionid}")
        request = urllib.request.Request(self.server.origin + path)
        request.add_header("Cookie", "; ".join(cookies))
        try:
            with self.opener.open(request, timeout=30) as response:
                return response.status, response.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode()

    def session(self) -> str:
        return next(c.value for c in self.jar if c.name == "sessionid")


def todays_code(server, players) -> str:
    """A player opens the daily (deriving the day's deal); a visitor reads its code."""
    assert Browser(server, sessionid=players[0]["sessionid"]).get("/daily/")[0] == 200
    status, board = Browser(server).get("/leaderboard/daily/")
    assert status == 200
    return re.search(r"HH1-D-[A-Z]{7}", board).group(0)


def assert_refused_without_a_card(status: int, page: str, language: str = "en") -> None:
    assert status == 403
    assert REFUSED[language] in page
    assert 'id="h2h-view"' not in page and "data-ws-path" not in page
    assert 'href="/accounts/signup/' in page and 'href="/play/new/"' in page


async def guest_socket_refusal(server, code: str, sessionid: str) -> tuple[dict, int]:
    """The error frame and close code a guest's play socket on `code` gets."""
    async with websockets.connect(
        server.ws_url(f"/ws/play/{code}/"),
        origin=server.origin,
        additional_headers={"Cookie": f"sessionid={sessionid}; django_language=en"},
        open_timeout=20,
    ) as ws:
        frame = json.loads(await asyncio.wait_for(ws.recv(), 20))
        with pytest.raises(ConnectionClosed) as closed:
            await asyncio.wait_for(ws.recv(), 20)
    return frame, closed.value.rcvd.code


def test_a_visitor_who_reads_todays_code_gets_no_card_by_any_route(static_collected, daphne):
    server, players = daphne
    code = todays_code(server, players)
    visitor = Browser(server)
    for path in (f"/play/{code}/", f"/play/{code.lower()}/", f"/deal/?code={code.lower()}"):
        assert_refused_without_a_card(*visitor.get(path))
    assert_refused_without_a_card(*Browser(server, "ms").get(f"/play/{code}/"), "ms")


def test_a_guest_gets_no_card_of_todays_deal_on_the_page_or_the_socket(static_collected, daphne):
    server, players = daphne
    code = todays_code(server, players)
    guest = Browser(server)
    assert guest.get("/play/new/")[0] == 200  # a guest of this browser now
    assert_refused_without_a_card(*guest.get(f"/play/{code}/"))
    frame, close_code = run_async(guest_socket_refusal(server, code, guest.session()))
    assert frame["type"] == "error" and frame["error"] == "daily_today"
    assert "signed-in players" in frame["message"]
    assert close_code == 4003
