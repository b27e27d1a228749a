"""Today's deal against a real daphne, as a hostile visitor tries it: read today's code off the
public daily board, then ask for its cards by every route a visitor or a guest has. Every one
must answer without a card; the signed-in player's ranked game is the only way in until
midnight (docs/protocol.md, "The ranked daily"; docs/reliability.md, "Fair play")."""

import asyncio
import datetime
import http.cookiejar
import json
import re
import urllib.error
import urllib.request
from zoneinfo import ZoneInfo

import pytest
import websockets
from websockets.exceptions import ConnectionClosed

from game import engine
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
    assert Browser(server, sessionid=players[9]["sessionid"]).get("/daily/")[0] == 200
    status, board = Browser(server).get("/leaderboard/daily/")
    assert status == 200
    return re.search(r"HH1-D-[A-Z]{7}", board).group(0)


def assert_refused_without_a_card(status: int, page: str, language: str = "en") -> None:
    assert status == 403
    assert REFUSED[language] in page
    assert 'id="h2h-view"' not in page and "data-ws-path" not in page
    assert 'href="/accounts/signup/' in page and 'href="/play/new/"' in page


def play_socket(server, code: str, sessionid: str):
    """A play socket on `code` in the session's browser, in English."""
    return websockets.connect(
        server.ws_url(f"/ws/play/{code}/"),
        origin=server.origin,
        additional_headers={"Cookie": f"sessionid={sessionid}; django_language=en"},
        open_timeout=20,
    )


async def guest_socket_refusal(server, code: str, sessionid: str) -> tuple[dict, int]:
    """The error frame and close code a guest's play socket on `code` gets."""
    async with play_socket(server, code, sessionid) as ws:
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


# Today's par: a newcomer wins today's deal in more moves than par. Par is the one figure their
# own window shows and nobody else may learn before midnight: with one win, moves minus the
# "moves over par" average would be it.


async def ranked_win(server, sessionid: str, code: str, plan: list) -> dict:
    """The winner's last frame: Start, then the solver's line, over the play socket."""
    async with play_socket(server, code, sessionid) as ws:
        frames = [json.loads(await asyncio.wait_for(ws.recv(), 20))]
        assert frames[0]["game"]["ranked"]
        for seq, frame in enumerate([{"type": "start"}, *tap_frames(plan)], start=1):
            await ws.send(json.dumps(frame | {"seq": seq}))
            frames.append(json.loads(await asyncio.wait_for(ws.recv(), 20)))
    return frames[-1]


def tap_frames(plan: list) -> list[dict]:
    return [{"type": "tap", "target": target} for target in plan]


async def first_frames(server, paths: list[str]) -> list[str]:
    """What an anonymous visitor's socket on each path receives first (or its refusal)."""
    texts = []
    for path in paths:
        async with websockets.connect(
            server.ws_url(path), origin=server.origin, open_timeout=20
        ) as ws:
            texts.append(await asyncio.wait_for(ws.recv(), 20))
    return texts


def public_pages(server, code: str, game_id: int, name: str) -> dict[str, str]:
    visitor = Browser(server)
    paths = [
        "/", "/daily/", "/leaderboard/daily/", f"/leaderboard/deal/{code}/",
        "/leaderboard/all-time/", f"/players/{name}/", f"/daily/calendar/?player={name}",
        f"/watch/{game_id}/", f"/replay/{game_id}/", f"/replay/{game_id}/steps/",
    ]  # fmt: skip
    return {path: visitor.get(path)[1] for path in paths}


def gives_par(text: str, par: int) -> bool:
    return bool(re.search(rf"\bpar\b\W{{0,40}}{par}\b", text, re.I)) or '"par"' in text


def test_nothing_an_anonymous_reader_gets_gives_todays_par_away(static_collected, daphne):
    server, players = daphne
    winner = players[10]
    code = todays_code(server, players)
    key = server.env["H2H_DEAL_KEY"]
    plan, par = engine.solve(code, key=key), engine.min_moves(code, key=key)
    last = run_async(ranked_win(server, winner["sessionid"], code, plan))
    result, game_id = last["game"]["result"], last["game"]["id"]
    assert result["won"] and result["moves"] > par
    assert result["par"] == par  # the winner's own window shows it: they have played
    pages = public_pages(server, code, game_id, winner["name"])
    assert re.search(
        r"<dt>Moves over par \(average\)</dt><dd>—</dd>", pages[f"/players/{winner['name']}/"]
    )
    today = datetime.datetime.now(ZoneInfo(server.env.get("H2H_DAILY_TZ", "UTC"))).date()
    sockets = ["/ws/live/home/", "/ws/live/all-time/", f"/ws/live/deal/{code}/",
               f"/ws/live/daily/{today.isoformat()}/", f"/ws/watch/{game_id}/"]  # fmt: skip
    frames = run_async(first_frames(server, sockets))
    read = [*pages.items(), *zip(sockets, frames, strict=True)]
    leaks = [where for where, text in read if gives_par(text, par)]
    assert leaks == []
