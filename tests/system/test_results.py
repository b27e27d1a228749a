"""Results come only from the server: no page or message takes a score, time, moves or "won",
and `manage.py audit_results` finds every stored result equal to the replay of its log."""

import io
import json
import re
from datetime import date
from itertools import islice

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.core.management import CommandError, call_command
from django.test import Client
from django.urls import URLResolver, get_resolver

from game import engine
from game.models import Game, Result
from game.sockets.routing import websocket_urlpatterns
from h2h_site.asgi import application
from tests.site import session_cookie, winnable_codes

pytestmark = pytest.mark.django_db(transaction=True)

CODE = "HH1-N-AAAAAAC"
CHEAT = {
    "score": 250,
    "time": 1,
    "duration_ms": 1,
    "moves": 1,
    "undos": 0,
    "won": True,
    "status": "won",
    "result": "won",
    "placement_help": False,
}


def routes(patterns, prefix=""):
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            yield from routes(pattern.url_patterns, prefix + str(pattern.pattern))
        else:
            yield prefix + str(pattern.pattern)


def filled(route: str, *, game_id: int, name: str) -> str:
    """A route with each of its parameters given a real value of this player."""
    values = {
        "<str:code>": CODE,
        "<int:game_id>": str(game_id),
        "<str:day>": date.today().isoformat(),
        "<str:name>": name,
        "<str:room>": "room1",
        "<str:language>": "en",
        "<str:key>": "x",  # an e-mail change's signed key: any value will do
    }
    for parameter, value in values.items():
        route = route.replace(parameter, value)
    # allauth's regex routes (an e-mail confirmation's key, a reset link's): any value will do
    route = re.sub(r"\(\?P<\w+>[^)]*\)", "x", route).replace("^", "").replace("$", "")
    assert "<" not in route, route
    return "/" + route


def results() -> list[tuple]:
    return list(Result.objects.order_by("pk").values_list())


def test_no_page_takes_a_result_from_the_client(player, rival):
    client = Client()
    client.force_login(player)
    client.get(f"/play/{CODE}/")
    game = Game.objects.get(player=player)
    paths = [
        filled(route, game_id=game.pk, name="Ann")
        for route in routes(get_resolver().url_patterns)
        if not route.startswith("admin/")
    ]
    assert len(paths) > 15
    for path in sorted(paths, key=lambda p: p == "/accounts/logout/"):  # log out last
        client.get(path, CHEAT)
        client.post(path, CHEAT)
        client.post(path, json.dumps(CHEAT), content_type="application/json")
    client.force_login(player)
    client.post("/play/new/", {"ending": game.pk, **CHEAT})  # a resignation, with a cheat
    (result,) = Result.objects.all()
    assert (result.won, result.score, result.moves) == (False, 0, 0)
    audit_clean()


async def test_no_socket_message_takes_a_result(player, winnable, settings):
    settings.TAP_RATE = 0
    code, plan = winnable
    cookie = await database_sync_to_async(session_cookie)(player)
    socket = await connected(f"/ws/play/{code}/", cookie)
    first = json.loads(await socket.receive_from())
    for seq, kind in enumerate(["result", "finish", "win", "score", "won"], start=1):
        await socket.send_json_to({"type": kind, "seq": seq, **CHEAT})
        assert (await socket.receive_json_from())["error"] == "unknown_type"
    assert await database_sync_to_async(results)() == []
    for seq, target in enumerate(plan[:-1], start=6):
        await socket.send_json_to({"type": "tap", "seq": seq, "target": target, **CHEAT})
        await socket.receive_json_from()
    frame = {"type": "tap", "seq": len(plan) + 5, "target": plan[-1], **CHEAT, "moves": 3}
    await socket.send_json_to(frame)
    last = await socket.receive_json_from()
    await socket.disconnect()
    result = await database_sync_to_async(Result.objects.get)(game_id=first["game"]["id"])
    state = engine.replay(code, plan, key=settings.DEAL_KEY)
    assert (result.won, result.score, result.moves) == (True, state.score, state.moves)
    assert result.moves != 3 and last["game"]["result"]["moves"] == state.moves
    await database_sync_to_async(audit_clean)()


async def connected(path: str, cookie: str) -> WebsocketCommunicator:
    headers = [(b"origin", b"http://testserver"), (b"host", b"testserver")]
    socket = WebsocketCommunicator(
        application, path, headers=[*headers, (b"cookie", cookie.encode())]
    )
    assert (await socket.connect())[0], path
    return socket


async def test_no_other_socket_takes_a_result(player, settings):
    cookie = await database_sync_to_async(session_cookie)(player)
    game_socket = await connected(f"/ws/play/{CODE}/", cookie)
    game_id = json.loads(await game_socket.receive_from())["game"]["id"]
    paths = [
        filled(route, game_id=game_id, name="Ann")
        for route in routes(websocket_urlpatterns)
        if not route.startswith("ws/play/")
    ]
    for path in paths:
        socket = await connected(path, cookie)
        for kind in ("result", "finish", "state", "tap"):
            await socket.send_json_to({"type": kind, "seq": 1, "game": game_id, **CHEAT})
        await socket.receive_nothing(timeout=0.2)
        await socket.disconnect()
    await game_socket.disconnect()
    assert await database_sync_to_async(results)() == []
    assert await database_sync_to_async(Game.objects.get)(pk=game_id) is not None


def audit_clean() -> str:
    out = io.StringIO()
    call_command("audit_results", stdout=out, stderr=io.StringIO())
    assert out.getvalue().rstrip().endswith(", 0 disagreements"), out.getvalue()
    return out.getvalue()


async def test_the_audit_replays_real_games_and_catches_a_forged_result(make_player, settings):
    settings.TAP_RATE = 0
    players = [await database_sync_to_async(make_player)(n) for n in ("cai", "dina", "eli", "fay")]
    cookies = [await database_sync_to_async(session_cookie)(p) for p in players]
    codes = await database_sync_to_async(lambda: list(islice(winnable_codes(), 2)))()
    for cookie, (code, plan) in zip(cookies, codes, strict=False):
        await play_over_socket(cookie, code, plan)  # won
    await play_over_socket(cookies[2], CODE, ["stock", "stock", "undo", {"type": "resign"}])
    await database_sync_to_async(new_game_over_an_unfinished_one)(players[3])
    assert (await database_sync_to_async(audit_clean)()).startswith("4 results audited")
    await database_sync_to_async(forge_and_audit)()


def new_game_over_an_unfinished_one(player) -> None:
    client = Client()
    client.force_login(player)
    client.get(f"/play/{CODE}/")
    game = Game.objects.get(player=player)
    assert client.post("/play/new/", {"ending": game.pk}).status_code == 302


def forge_and_audit() -> None:
    forged = Result.objects.filter(won=True).first()
    Result.objects.filter(pk=forged.pk).update(score=forged.score - 2)
    with pytest.raises(CommandError):
        call_command("audit_results", stdout=io.StringIO(), stderr=io.StringIO())


async def play_over_socket(cookie: str, code: str, actions) -> None:
    """Play `actions` (targets, "undo", or whole frames) on the player's game over a socket."""
    socket = await connected(f"/ws/play/{code}/", cookie)
    await socket.receive_from()
    for seq, action in enumerate(actions, start=1):
        frame = action if isinstance(action, dict) else _frame(action)
        await socket.send_json_to({**frame, "seq": seq})
        reply = await socket.receive_json_from()
        assert reply["type"] == "state", reply
    await socket.disconnect()


def _frame(action) -> dict:
    return {"type": "undo"} if action == "undo" else {"type": "tap", "target": action}
