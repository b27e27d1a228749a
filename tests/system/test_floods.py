"""Floods: a token bucket per socket, a close for a flooder, a cap on sockets, throttled logins."""

import asyncio
import datetime
import doctest
import json
import time
from collections import Counter

import pytest
import time_machine
import websockets
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client
from django.utils import timezone
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from game import services
from game.models import Action, Game
from game.sockets import ratelimit
from game.sockets.base import CLOSE_FLOODING, CLOSE_TOO_MANY_SOCKETS
from game.sockets.play import play_sockets
from game.sockets.public import client_address, per_address, per_user
from h2h_site.asgi import application
from tests.site import ORIGIN, game_log, greeted, open_socket
from tests.system.conftest import run_async

pytestmark = pytest.mark.django_db(transaction=True)

CODE = "HH1-N-AAAAAAC"


def test_the_limiter_doctests_pass():
    # attempted too: a module whose examples were lost would otherwise pass with none run
    result = doctest.testmod(ratelimit)
    assert result.attempted > 0 and result.failed == 0


def test_the_defaults_are_ten_a_second_with_bursts_of_twenty(settings):
    assert (settings.TAP_RATE, settings.TAP_BURST) == (10, 20)


def test_a_rate_of_zero_admits_everything():
    limiter = ratelimit.FrameLimiter(rate=0, burst=1, clock=ratelimit.FakeClock())
    assert {limiter.take() for _ in range(10_000)} == {ratelimit.Verdict.ADMIT}


def test_a_steady_ten_a_second_is_never_refused():
    clock = ratelimit.FakeClock()
    limiter = ratelimit.FrameLimiter(rate=10, burst=20, clock=clock)
    verdicts = set()
    for _ in range(6_000):  # ten minutes at ten frames a second
        clock.now += 0.1
        verdicts.add(limiter.take())
    assert verdicts == {ratelimit.Verdict.ADMIT}


def verdicts_at(frames_per_second: float, seconds: float = 60) -> list:
    clock = ratelimit.FakeClock()
    limiter = ratelimit.FrameLimiter(rate=10, burst=20, clock=clock)
    verdicts = []
    for _ in range(int(frames_per_second * seconds)):
        clock.now += 1 / frames_per_second
        verdicts.append(limiter.take())
    return verdicts


def test_a_client_a_little_too_fast_is_told_but_never_closed():
    for rate in (11, 14):
        verdicts = verdicts_at(rate)
        assert ratelimit.Verdict.REFUSE in verdicts
        assert ratelimit.Verdict.CLOSE not in verdicts


def test_twice_the_rate_is_closed_within_seconds():
    verdicts = verdicts_at(20)
    assert verdicts.index(ratelimit.Verdict.CLOSE) < 20 * 10


async def connected(cookie, code=CODE):
    return await greeted(cookie, code)


async def test_taps_beyond_the_bucket_get_a_rate_error_and_are_not_applied(player_cookie):
    socket, first = await connected(player_cookie)
    started = time.monotonic()
    for seq in range(1, 31):
        await socket.send_json_to({"type": "tap", "seq": seq, "target": "stock"})
    replies = [await socket.receive_json_from() for _ in range(30)]
    refill = int((time.monotonic() - started) * 10) + 1
    drawn = [r["seq"] for r in replies if r["type"] == "state"]
    refused = [r for r in replies if r["type"] == "error"]
    assert 20 <= len(drawn) <= 20 + refill
    assert {r["error"] for r in refused} == {"rate_limited"} and len(refused) == 30 - len(drawn)
    assert sorted(r["seq"] for r in refused) == sorted(set(range(1, 31)) - set(drawn))
    last_seq, count, actions = await game_log(first["game"]["id"])
    assert (count, actions) == (len(drawn), ["stock"] * len(drawn)) and last_seq == drawn[-1]
    await socket.disconnect()


async def flood(socket, frames: int) -> list[dict]:
    """Send `frames` taps at once; return what came back before the close (and the close)."""
    for seq in range(1, frames + 1):
        await socket.send_json_to({"type": "tap", "seq": seq, "target": 1})
    outputs = []
    while True:
        output = await socket.receive_output(timeout=5)
        outputs.append(output)
        if output["type"] == "websocket.close":
            await socket.disconnect()  # as daphne tells the app once the socket is closed
            return outputs


async def test_a_client_that_keeps_flooding_is_closed_with_4008(player_cookie):
    socket, _ = await connected(player_cookie)
    outputs = await flood(socket, 80)
    assert outputs[-1] == {"type": "websocket.close", "code": CLOSE_FLOODING}
    errors = [o["text"] for o in outputs if "rate_limited" in o.get("text", "")]
    assert len(errors) >= 20  # told a burst's worth of times before the close
    assert '"flooding"' in outputs[-2]["text"]


async def test_others_play_on_while_one_client_floods(player_cookie, rival_cookie):
    flooder, _ = await connected(player_cookie)
    honest, first = await connected(rival_cookie)
    flooding = asyncio.create_task(flood(flooder, 200))
    for seq in range(1, 11):
        await honest.send_json_to({"type": "tap", "seq": seq, "target": "stock"})
        reply = await honest.receive_json_from()
        assert (reply["type"], reply["event"]) == ("state", "draw")
        await asyncio.sleep(0.05)
    assert (await flooding)[-1]["code"] == CLOSE_FLOODING
    assert (await game_log(first["game"]["id"]))[1] == 10
    await honest.disconnect()


async def test_a_player_holds_at_most_five_sockets(player_cookie, rival_cookie, settings):
    assert settings.SOCKETS_PER_PLAYER == 5
    before = play_sockets.total()
    tabs = [(await connected(player_cookie))[0] for _ in range(5)]
    extra = await open_socket(application, CODE, player_cookie)
    frame = await extra.receive_json_from()
    assert (frame["type"], frame["error"]) == ("error", "too_many_sockets")
    assert (await extra.receive_output())["code"] == CLOSE_TOO_MANY_SOCKETS
    rivals, _ = await connected(rival_cookie)  # another player is not affected
    await tabs.pop().disconnect()
    tabs.append((await connected(player_cookie))[0])  # a closed tab frees its place
    for socket in [*tabs, rivals]:
        await socket.disconnect()
    assert play_sockets.total() == before


# Public sockets --------------------------------------------------------------------------


async def socket_from(path: str, address: str, cookie: str | None = None) -> WebsocketCommunicator:
    """A socket on `path` from `address`, past its handshake."""
    headers = [(b"origin", ORIGIN), (b"host", b"testserver")]
    if cookie:
        headers.append((b"cookie", cookie.encode()))
    socket = WebsocketCommunicator(application, path, headers=headers)
    socket.scope["client"] = [address, 50000]
    assert (await socket.connect())[0]
    return socket


async def refused(socket) -> tuple[str, int]:
    frame = await socket.receive_json_from()
    return frame["error"], (await socket.receive_output())["code"]


async def test_an_address_holds_at_most_twenty_anonymous_public_sockets(settings):
    assert settings.REALTIME_SOCKETS_PER_ADDRESS == 20
    paths = ["/ws/live/all-time/", "/ws/live/home/", f"/ws/live/deal/{CODE}/"]
    flood = [await socket_from(paths[n % 3], "203.0.113.5") for n in range(20)]
    extra = await socket_from("/ws/live/all-time/", "203.0.113.5")
    assert await refused(extra) == ("too_many_sockets", CLOSE_TOO_MANY_SOCKETS)
    honest = await socket_from("/ws/live/all-time/", "198.51.100.7")  # another address
    assert (await honest.receive_json_from())["type"] == "board"
    await flood.pop().disconnect()
    again = await socket_from("/ws/live/all-time/", "203.0.113.5")  # a closed socket frees a place
    assert (await again.receive_json_from())["type"] == "board"
    for socket in [*flood, honest, again]:
        await socket.disconnect()
    assert not per_address.open


def test_an_ipv6_client_is_counted_by_its_64_and_a_mapped_ipv4_one_as_ipv4():
    def key(host):
        return client_address({"client": [host, 443]})

    assert key("2001:db8:5::1") == key("2001:db8:5:0:ffff::2") == "2001:db8:5::/64"
    assert key("2001:db8:5:1::1") != key("2001:db8:5::1")
    assert key("::ffff:203.0.113.5") == key("203.0.113.5") == "203.0.113.5"


async def test_a_user_holds_at_most_twenty_public_sockets_wherever_they_come_from(
    player, player_cookie, rival_cookie, settings
):
    assert settings.REALTIME_SOCKETS_PER_USER == 20
    tabs = [
        await socket_from("/ws/live/all-time/", f"198.51.100.{n}", player_cookie) for n in range(20)
    ]
    extra = await socket_from("/ws/live/all-time/", "198.51.100.99", player_cookie)
    assert await refused(extra) == ("too_many_sockets", CLOSE_TOO_MANY_SOCKETS)
    # Behind one address, other players and anonymous visitors are not counted with them.
    rival = await socket_from("/ws/live/all-time/", "198.51.100.1", rival_cookie)
    anonymous = await socket_from("/ws/live/all-time/", "198.51.100.1")
    for socket in (rival, anonymous):
        assert (await socket.receive_json_from())["type"] == "board"
    for socket in [*tabs, rival, anonymous]:
        await socket.disconnect()
    assert not per_user.open


FLOOD = 200  # anonymous sockets one address opens at once against a real daphne


async def live_board(server, address: str, sessionid: str | None = None):
    """An all-time board socket from `address` (a loopback one) and its first frame."""
    headers = {"Cookie": f"sessionid={sessionid}"} if sessionid else {}
    ws = await websockets.connect(
        server.ws_url("/ws/live/all-time/"),
        origin=server.origin,
        additional_headers=headers,
        local_addr=(address, 0),
        open_timeout=20,
    )
    return ws, json.loads(await asyncio.wait_for(ws.recv(), 20))


async def flooder(server, gate: asyncio.Semaphore):
    """(the socket, None) if it stayed open, else (None, (its error, its close code))."""
    async with gate:
        ws, frame = await handshake_again_if_dropped(server, "127.0.0.3")
        if frame["type"] == "board":
            return ws, None
        with pytest.raises(ConnectionClosed) as closed:
            await asyncio.wait_for(ws.recv(), 20)
        return None, (frame["error"], closed.value.rcvd.code)


async def handshake_again_if_dropped(server, address: str, tries: int = 3):
    """A flooder's board socket, asked again (as any flooder would) if daphne dropped the
    handshake: on a loaded machine a burst of handshakes can outlast daphne's 5 s handshake
    timeout, which says nothing about the cap."""
    for _ in range(tries - 1):
        try:
            return await live_board(server, address)
        except InvalidHandshake:
            await asyncio.sleep(0.5)
    return await live_board(server, address)


async def flood_with_honest_players(server, players) -> dict:
    gate = asyncio.Semaphore(25)  # handshakes at once: enough to overlap, loopback-sized
    flood = asyncio.gather(*(flooder(server, gate) for _ in range(FLOOD)))
    started = time.monotonic()
    honest, first = await live_board(server, "127.0.0.4")  # while the flood goes on
    waited = time.monotonic() - started
    neighbour, theirs = await live_board(server, "127.0.0.3", players[11]["sessionid"])
    outcomes = await flood
    kept = [ws for ws, _ in outcomes if ws]
    for ws in [*kept, honest, neighbour]:  # everything that stayed open still answers
        await ws.send(json.dumps({"type": "sync"}))
        assert json.loads(await asyncio.wait_for(ws.recv(), 20))["type"] == "board"
        await ws.close()
    return {
        "kept": len(kept),
        "refusals": Counter(refusal for _, refusal in outcomes if refusal),
        "honest": (first["type"], theirs["type"]),
        "honest_waited_s": waited,
    }


@pytest.mark.slow
def test_a_flood_of_sockets_from_one_address_keeps_twenty_and_others_get_in(daphne):
    server, players = daphne
    report = run_async(asyncio.wait_for(flood_with_honest_players(server, players), 120))
    assert report["kept"] == 20
    assert report["refusals"] == {("too_many_sockets", CLOSE_TOO_MANY_SOCKETS): FLOOD - 20}
    assert report["honest"] == ("board", "board")  # another address; a player behind this one
    assert report["honest_waited_s"] < 10


# The action log --------------------------------------------------------------------------


@database_sync_to_async
def a_game_of_draws(player, draws: int) -> int:
    """The player's game of CODE with `draws` stock taps already stored, as if played."""
    game = services.game_open(player=player, code=CODE)
    now = timezone.now()
    Action.objects.bulk_create(
        Action(game=game, index=i, action="stock", at=now) for i in range(draws)
    )
    Game.objects.filter(pk=game.pk).update(action_count=draws)
    return game.pk


async def test_a_game_takes_no_move_past_2000_log_entries_but_can_still_end(
    player, player_cookie, settings
):
    assert settings.ACTIONS_PER_GAME == 2000
    game_id = await a_game_of_draws(player, 1999)
    socket, _ = await connected(player_cookie)
    replies = []
    frames = [
        {"type": "tap", "target": "stock"},  # the 2000th entry
        {"type": "tap", "target": "stock"},
        {"type": "settings", "placement_help": False},
        {"type": "settings", "placement_help": True},  # no change: nothing to store
        {"type": "undo"},
        {"type": "resign"},
    ]
    for seq, frame in enumerate(frames, start=1):
        await socket.send_json_to({**frame, "seq": seq})
        replies.append(await socket.receive_json_from())
    kinds = [reply.get("error") or reply["event"] for reply in replies]
    assert kinds == ["draw", "too_many_moves", "too_many_moves", "settings", "undo", "resign"]
    _, count, actions = await game_log(game_id)
    assert count == 2001 and actions[-2:] == ["stock", "undo"]
    await socket.disconnect()


# Logins ----------------------------------------------------------------------------------

PASSWORD = "ann-pw-4213"  # tests.site's make_player


@pytest.fixture(autouse=True)
def english(settings):
    settings.LANGUAGE_CODE = "en"


def log_in(client, username, password, address="10.0.0.1", path="/accounts/login/"):
    return client.post(path, {"login": username, "password": password}, REMOTE_ADDR=address)


def is_logged_in(client) -> bool:
    return client.get("/").wsgi_request.user.is_authenticated


def test_five_wrong_passwords_lock_the_username_with_a_clear_message(player):
    client = Client()
    for _ in range(5):
        assert log_in(client, "ann", "wrong").status_code == 200
    response = log_in(client, "ann", PASSWORD)
    assert response.status_code == 429 and not is_logged_in(client)
    assert "Too many failed logins" in response.content.decode()
    other = Client()  # the lock is per username whatever the address: ANN is ann
    assert log_in(other, "ANN", PASSWORD, address="10.9.9.9").status_code == 429


def test_a_locked_username_does_not_lock_out_other_players(player, rival):
    for _ in range(6):
        log_in(Client(), "ann", "wrong")
    client = Client()
    assert log_in(client, "bea", "bea-pw-4213").status_code == 302 and is_logged_in(client)


def test_one_address_trying_many_usernames_is_throttled(player, rival):
    for number in range(20):
        log_in(Client(), f"nobody{number}", "wrong", address="10.6.6.6")
    response = log_in(Client(), "bea", "bea-pw-4213", address="10.6.6.6")
    assert response.status_code == 429
    client = Client()
    assert log_in(client, "bea", "bea-pw-4213", address="10.7.7.7").status_code == 302


def test_the_admin_logs_in_on_the_rate_limited_login_page(make_player):
    admin = make_player("root")
    admin.is_staff = admin.is_superuser = True
    admin.save()
    response = Client().get("/admin/login/?next=/admin/")
    assert response.status_code == 302 and response.url.startswith("/accounts/login/")
    for _ in range(5):
        log_in(Client(), "root", "wrong")
    client = Client()
    assert log_in(client, "root", "root-pw-4213").status_code == 429
    assert not is_logged_in(client)


def test_the_lock_ends_with_its_window(player):
    for _ in range(5):
        log_in(Client(), "ann", "wrong")
    assert log_in(Client(), "ann", PASSWORD).status_code == 429
    with time_machine.travel(datetime.timedelta(seconds=901)):
        client = Client()
        assert log_in(client, "ann", PASSWORD).status_code == 302 and is_logged_in(client)


def test_a_right_password_takes_back_its_own_attempt_only(player):
    # allauth does not wipe the failures on a right password: an attacker who also knows one
    # password of the address cannot interleave logins to keep guessing another.
    for _ in range(4):
        log_in(Client(), "ann", "wrong")
    assert log_in(Client(), "ann", PASSWORD).status_code == 302
    assert log_in(Client(), "ann", "wrong").status_code == 200  # the fifth failure
    assert log_in(Client(), "ann", PASSWORD).status_code == 429
