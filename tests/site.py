"""The site's test fixtures and helpers: players, their session cookies, winnable codes, sockets.

tests/conftest.py offers the fixtures to every test folder."""

import asyncio
import datetime
import json
import re

import pytest
import time_machine
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone

from game import engine, services
from game.models import Game, Profile, RaceEntry, RaceRoom
from game.runtime import open_games
from game.selectors import daily
from game.services import races
from game.storage import dbthread

ORIGIN = b"http://testserver"


@pytest.fixture
def make_player(settings):
    """A factory of players: an account with a public display name."""
    # Password hashing is built to be slow; these tests are not about it.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

    def make(name: str):
        user = get_user_model().objects.create_user(username=name, password=f"{name}-pw-4213")
        Profile.objects.create(user=user, display_name=name.title())
        return user

    return make


@pytest.fixture
def player(make_player):
    return make_player("ann")


@pytest.fixture
def rival(make_player):
    return make_player("bea")


PASSWORD = "heart-shaped-42"  # the test accounts' password: long and not a common one


def sign_up(client, **changes):
    """Post the sign-up form for "bea" (with `changes` to its fields); the response."""
    data = {
        "username": "bea",
        "email": "bea@example.org",
        "display_name": "Bea",
        "password1": PASSWORD,
        "password2": PASSWORD,
        **changes,
    }
    return client.post("/accounts/signup/", data)


def logged_in(user) -> Client:
    """A browser logged in as `user`."""
    client = Client()
    client.force_login(user)
    return client


def json_script(content: str, element_id: str):
    """The data a page gives its scripts in the `<script id=element_id>` element."""
    found = re.search(rf'<script id="{element_id}" type="application/json">(.*?)</script>', content)
    return json.loads(found.group(1))


def speaking(language: str, user=None) -> Client:
    """A browser speaking `language` (by the language cookie), logged in as `user` if given."""
    client = Client()
    if user is not None:
        client.force_login(user)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    return client


def session_cookie(user, language: str = "en") -> str:
    """The Cookie header of a browser logged in as `user` and speaking `language`."""
    client = Client()
    client.force_login(user)
    session = client.cookies[settings.SESSION_COOKIE_NAME].value
    return f"{settings.SESSION_COOKIE_NAME}={session}; {settings.LANGUAGE_COOKIE_NAME}={language}"


@pytest.fixture
def player_cookie(player):
    return session_cookie(player)


@pytest.fixture
def rival_cookie(rival):
    return session_cookie(rival)


def winnable_codes():
    """Normal codes the solver wins under this deployment's key, in seed order."""
    for seed in range(10_000):
        code = engine.format_code("N", seed)
        plan = engine.solve(code, key=settings.DEAL_KEY)
        if plan:
            yield code, plan


@pytest.fixture
def winnable():
    """(code, plan): a winnable code and a plan of actions that wins it."""
    return next(winnable_codes())


@pytest.fixture
def deals_drawn(monkeypatch, winnable):
    """engine.random_code draws two codes deadlocked before any move, then the winnable one's."""
    codes = (engine.format_code("N", seed) for seed in range(10_000))
    dead = [c for c in codes if engine.new_game(c, key=settings.DEAL_KEY).deadlocked][:2]
    drawn = iter([*dead, winnable[0]])
    monkeypatch.setattr(engine, "random_code", lambda kind="N": next(drawn))
    return dead, winnable[0]


def stock_order(code: str) -> tuple[int, ...]:
    """The stock of a code's deal, top first: what no player may ever read."""
    return engine.deal_for_code(code, key=settings.DEAL_KEY)[25:51]


def reveals_stock(text: str, code: str, run: int = 8) -> bool:
    """True if `run` consecutive stock ranks appear as consecutive numbers anywhere in `text`."""
    numbers = tuple(int(n) for n in re.findall(r"\d+", text))
    stock = stock_order(code)
    windows = {stock[i : i + run] for i in range(len(stock) - run + 1)}
    return any(numbers[i : i + run] in windows for i in range(len(numbers) - run + 1))


async def open_socket(app, code: str, cookie: str | None = None, *, origin: bytes = ORIGIN):
    """A connected communicator on /ws/play/<code>/ (connected or not: check .connected)."""
    headers = [(b"origin", origin)]
    if cookie:
        headers.append((b"cookie", cookie.encode()))
    communicator = WebsocketCommunicator(app, f"/ws/play/{code}/", headers=headers)
    communicator.connected, _ = await communicator.connect()
    return communicator


async def greeted(cookie: str, code: str, app=None):
    """A play socket on `code` (on the site's ASGI app unless `app`) past its first state frame,
    and that frame, once the socket's presence row is written."""
    from h2h_site.asgi import application  # imported late: it sets up the whole site

    socket = await open_socket(app or application, code, cookie)
    assert socket.connected
    first = await socket.receive_json_from()
    await sockets_database_work_done()
    return socket, first


async def sockets_database_work_done() -> None:
    """Wait for the database work the sockets have queued so far (a socket's presence row is
    written after its first frame). On the in-memory test database one worker runs it in order,
    and a write from the test meanwhile would find a table locked instead of waiting."""
    await asyncio.wrap_future(dbthread._workers.submit(lambda: None))


async def send(socket, frame: dict) -> dict:
    """Send one frame; the next frame the socket receives."""
    await socket.send_json_to(frame)
    return await socket.receive_json_from()


@database_sync_to_async
def game_log(game_id: int) -> tuple[int, int, list[str]]:
    """(last_seq, action_count, actions) of a game, to show that something changed nothing."""
    game = Game.objects.get(pk=game_id)
    actions = list(game.actions.order_by("index").values_list("action", flat=True))
    return game.last_seq, game.action_count, actions


@pytest.fixture
def before_midnight(settings):
    """A movable clock, ticking from five minutes before the end of the daily calendar's day
    (in Kuala Lumpur, so that the day's end is not UTC's); `.midnight` is that end."""
    settings.DAILY_TZ = "Asia/Kuala_Lumpur"
    midnight = daily.daily_day_end(daily.daily_today())
    with time_machine.travel(midnight - datetime.timedelta(minutes=5), tick=True) as clock:
        clock.midnight = midnight
        yield clock


class SocketPlay:
    """The play use cases as a player's socket makes them: on the game in memory that a socket
    of its code opens (open_games.live_open), then told to its other listeners (live_publish)."""

    def start(self, **arguments):
        return self._made(services.game_start, **arguments)

    def tap(self, **arguments):
        return self._made(services.game_tap, **arguments)

    def undo(self, **arguments):
        return self._made(services.game_undo, **arguments)

    def resign(self, **arguments):
        return self._made(services.game_resign, **arguments)

    def set_help(self, **arguments):
        return self._made(services.game_set_help, **arguments)

    @staticmethod
    def _made(action, **arguments):
        return async_to_sync(_made_on_its_socket)(action, **arguments)


async def _made_on_its_socket(action, *, player, game_id: int, **arguments):
    code = await database_sync_to_async(lambda: Game.objects.get(pk=game_id).code)()
    live = await open_games.live_open(player=player, code=code, channel="test-socket")
    try:
        assert live.id == game_id, "the socket of a code shows the player's latest game of it"
        reply = await action(game=live, player=player, **arguments)
        await open_games.live_publish(live, reply, origin="test-socket")
        return reply
    finally:
        open_games.live_close(live, channel="test-socket")


@pytest.fixture
def on_socket(transactional_db):
    """Each play action as a player's socket makes it. Its game lives on a database thread's
    connection, which sees only what is committed: the test's database is transactional."""
    return SocketPlay()


async def connect(path: str, cookie: str | None = None) -> WebsocketCommunicator:
    """A connected communicator on `path`, past nothing yet."""
    from h2h_site.asgi import application  # imported late: it sets up the whole site

    headers = [(b"origin", ORIGIN), (b"host", b"testserver")]
    if cookie:
        headers.append((b"cookie", cookie.encode()))
    socket = WebsocketCommunicator(application, path, headers=headers)
    connected, _ = await socket.connect()
    assert connected, path
    return socket


async def frame_of(socket, kind: str, timeout: float = 5) -> dict:
    """The next frame of type `kind`, skipping others (e.g. presence between board frames)."""
    while True:
        frame = await socket.receive_json_from(timeout=timeout)
        if frame["type"] == kind:
            return frame


def resign_now(player, code: str) -> int:
    """Open the player's game of `code` and resign it at once: a result, committed. Its id."""
    game = services.game_open(player=player, code=code)
    services.game_resign(game=services.LockedGame(game.pk), player=player)
    return game.pk


resign = database_sync_to_async(resign_now)  # the same, from a socket test's event loop


@database_sync_to_async
def play(player, game_id: int, actions, first_seq: int = 1) -> None:
    """Tap `actions` on the player's game through the services, one transaction each."""
    selected = None  # a selection lives in the socket's memory: carry it from tap to tap
    for seq, action in enumerate(actions, start=first_seq):
        reply = services.game_tap(
            game=services.LockedGame(game_id),
            player=player,
            seq=seq,
            target=action,
            selected=selected,
        )
        selected = reply.state.selected


@database_sync_to_async
def started_race(*players, code: str) -> tuple[str, dict[str, int]]:
    """A race of `code` between `players` (the first creates it), begun now: its room code,
    and each racer's username with their race game's id."""
    room = races.race_create(player=players[0], code=code)
    for player in players[1:]:
        races.race_join(player=player, room=room.room)
    for player in players:
        races.race_ready(player=player, room=room.room, ready=True)
    RaceRoom.objects.filter(pk=room.pk).update(starts_at=timezone.now())
    races.race_begin_if_due(room=room.room)
    entries = RaceEntry.objects.filter(room=room).select_related("player")
    return room.room, {entry.player.username: entry.game_id for entry in entries}
