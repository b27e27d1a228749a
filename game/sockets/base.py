"""The one base every socket of the site stands on (play, live boards, watch, race): transport
only. `Socket` chooses the language, caps how many sockets are open, decodes and rate-limits
each frame, builds every error frame, refuses (accept, one error frame, close) and closes when
the session logs out. A consumer says only what is its own: its frames, its cap, its bucket.

docs/protocol.md gives the frames, error codes and close codes; a refused frame never closes
the socket, except a flood (`flooding`, CLOSE_FLOODING).
"""

import asyncio
import contextlib
import functools
import json
import logging
import time
from collections import defaultdict
from collections.abc import Callable, Hashable
from types import SimpleNamespace

import orjson
from channels.consumer import get_handler_name
from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from channels.layers import get_channel_layer
from channels.sessions import InstanceSessionWrapper
from django.utils import translation
from django.utils.functional import empty

from game.metrics import socket_meters
from game.services import GameError
from game.services.groups import player_group
from game.sockets.ratelimit import FrameLimiter, Verdict
from game.storage.failures import UNAVAILABLE

logger = logging.getLogger(__name__)

# The close codes of every socket. Daphne lets an application close with 1000 or 3000-4999
# only; a refused handshake's code never reaches a browser, so a refusal accepts first.
CLOSE_LOGIN_REQUIRED = 4001  # no logged-in user, where the socket needs one
CLOSE_LOGGED_OUT = CLOSE_LOGIN_REQUIRED  # the session ended: as if it had never logged in
CLOSE_FORBIDDEN = 4003  # not allowed now (race_lobby, race_running, playing_this_deal, ...)
CLOSE_NOT_FOUND = 4004  # no such deal code, board, game or room
CLOSE_FLOODING = 4008  # kept sending after `rate_limited` (game.sockets.ratelimit)
CLOSE_TOO_MANY_SOCKETS = 4009  # its user, player or address is at its cap on this process
# A handler failed in a way no error code names (`server_error` first): the client reconnects,
# and the greeting's snapshot shows what the server holds. Never 1011, which says nothing.
CLOSE_SERVER_ERROR = 4500

MAX_FRAME_BYTES = 1024


def socket_language(scope: dict) -> str:
    """The socket's language, chosen as Django chooses a page's: cookie, then Accept-Language."""
    headers = dict(scope.get("headers", []))
    accept = headers.get(b"accept-language", b"").decode("latin-1")
    request = SimpleNamespace(
        COOKIES=scope.get("cookies", {}), META={"HTTP_ACCEPT_LANGUAGE": accept}
    )
    return translation.get_language_from_request(request)


def decode_frame(text_data: str | None, *, refusal: type[GameError] = GameError) -> dict:
    """A text frame's JSON object, or GameError `binary`, `too_large` or `bad_json`; a frame
    that is not an object is `refusal("bad_frame")`, whose text says what that socket wants."""
    if text_data is None:
        raise GameError("binary")
    # The character count first: a huge frame is refused without encoding it.
    if len(text_data) > MAX_FRAME_BYTES or len(text_data.encode("utf-8")) > MAX_FRAME_BYTES:
        raise GameError("too_large")
    try:
        frame = json.loads(text_data)
    except (ValueError, RecursionError) as error:  # 1 KiB of "[" nests deeper than the stack
        raise GameError("bad_json") from error
    if not isinstance(frame, dict):
        raise refusal("bad_frame")
    return frame


class SocketCount:
    """Sockets open on this process per key (a player, an address), at most `cap()` each.

    The count lives in the process, so a crash never leaves stale entries.
    """

    def __init__(self, cap: Callable[[], int]) -> None:
        self.cap = cap
        self.open: dict[Hashable, set[str]] = defaultdict(set)

    def add(self, *, key: Hashable, channel: str) -> bool:
        """Count one more socket; False (and not counted) if its key is at the cap."""
        if len(self.open.get(key, ())) >= self.cap():
            return False
        self.open[key].add(channel)
        return True

    def discard(self, *, key: Hashable, channel: str) -> None:
        sockets = self.open.get(key)
        if sockets is not None:
            sockets.discard(channel)
            if not sockets:
                del self.open[key]

    def total(self) -> int:
        """Every counted socket on this process (the soak benchmark checks it returns to 0)."""
        return sum(len(sockets) for sockets in self.open.values())


class Socket(AsyncJsonWebsocketConsumer):
    """A JSON socket of the site. A subclass gives its `kind`, `frame_limiter` and
    `counted_in`, and handles each admitted frame in `receive_frame`; `connect` accepts or
    refuses."""

    kind = "socket"  # its label in the metrics (game.metrics): play, boards, watch, race
    numbered = False  # True: frames carry a `seq` (`seq_of`), which error frames echo
    login_required = False  # True: a socket with no player is refused with CLOSE_LOGIN_REQUIRED
    closes_on_logout = True  # a logged-in socket joins its player's group (game.services.sessions)
    frame_error: type[GameError] = GameError  # its `bad_frame` says what this socket wants
    counted: tuple[SocketCount, Hashable] | None = None
    received_at: float | None = None  # while a frame awaits its reply: when it came

    def frame_limiter(self) -> FrameLimiter:
        """This socket's token bucket (game.sockets.ratelimit)."""
        raise NotImplementedError

    def counted_in(self) -> tuple[SocketCount, Hashable]:
        """The count that caps this socket, and its key in it."""
        raise NotImplementedError

    async def receive_frame(self, frame: dict, seq: int | None) -> None:
        """One decoded frame, within the bucket; a GameError becomes its error frame."""
        raise NotImplementedError

    def seq_of(self, frame: dict) -> int | None:
        """A numbered socket's frame number, checked (GameError if it is bad); else None."""
        return None

    async def player_of(self, user):
        """Who this socket acts as: the session's user (a socket that lets guests play says
        the session's guest, for a visitor who has one)."""
        return user

    async def websocket_connect(self, message: dict) -> None:
        self.language = socket_language(self.scope)
        self.meters = socket_meters(self.kind)
        self.user = await self.player_of(_unwrapped(self.scope["user"]))
        self.limiter = self.frame_limiter()
        if self.login_required and not self.user.is_authenticated:
            return await self.refuse(GameError("login_required"), CLOSE_LOGIN_REQUIRED)
        count, key = self.counted_in()
        if not count.add(key=key, channel=self.channel_name):
            return await self.refuse(GameError("too_many_sockets"), CLOSE_TOO_MANY_SOCKETS)
        self.counted = count, key
        self.meters.open.inc()
        if self.closes_on_logout and self.user.is_authenticated:
            self.groups.append(player_group(player_id=self.user.pk))  # joined before connect
        await super().websocket_connect(message)

    async def websocket_disconnect(self, message: dict) -> None:
        if self.counted is not None:
            count, key = self.counted
            count.discard(key=key, channel=self.channel_name)
            self.meters.open.dec()
        await super().websocket_disconnect(message)  # leaves self.groups, then disconnect()

    async def __call__(self, scope: dict, receive, send) -> None:
        # Channels' own loop (await_many_dispatch) makes a task and an asyncio.wait for every
        # message, a tenth of a tap's time at saturation. Here one loop per source reads it
        # for the socket's whole life; the handlers still run one at a time.
        self.scope, self.base_send, sources = scope, send, [receive]
        self.send_frame = _beneath_session(send)
        self.channel_layer = get_channel_layer(self.channel_layer_alias)
        if self.channel_layer is not None:
            self.channel_name = await self.channel_layer.new_channel()
            self.channel_receive = functools.partial(self.channel_layer.receive, self.channel_name)
            sources.append(self.channel_receive)
        with contextlib.suppress(StopConsumer):  # the client left (websocket_disconnect)
            await _dispatch_each(sources, self.dispatch)

    async def dispatch(self, message: dict) -> None:
        # Channels' own dispatch first runs close_old_connections on its sync thread: a thread
        # hop for every message. These sockets touch no connection of that thread: their
        # database work runs on game.storage.dbthread's workers, which keep their own.
        handler = getattr(self, get_handler_name(message), None)
        if handler is not None:
            return await handler(message)
        # A game's group is the play sockets', the spectators' and the race rooms', and each
        # may add messages of its own (game.*): a socket passes over those it has no use for.
        if not message["type"].startswith("game."):
            raise ValueError(f"no handler for message type {message['type']}")

    async def receive(self, text_data=None, bytes_data=None) -> None:
        # Decoded here, not by the JSON consumer, so malformed JSON gets an error frame
        # instead of an exception that closes the socket with 1011.
        seq, self.received_at = None, time.perf_counter()
        try:
            verdict = self.limiter.take()
            if verdict is Verdict.CLOSE:
                raise GameError("flooding")
            frame = decode_frame(text_data, refusal=self.frame_error)
            seq = self.seq_of(frame)
            if verdict is Verdict.REFUSE:  # decoded first, so the refusal names its seq
                raise GameError("rate_limited")
            await self.receive_frame(frame, seq)
        except GameError as error:
            await self.send_json(self.error_frame(error, seq))
            if error.code == "flooding":
                await self.close(code=CLOSE_FLOODING)
        except Exception as error:
            await self.answer_failure(error, seq)
        finally:
            self.received_at = None  # a frame answered by nothing times no later frame

    async def answer_failure(self, error: Exception, seq: int | None) -> None:
        """A handler raised: a write the database could not take now is `storage_unavailable`
        (not stored, may be sent again: the socket stays open); anything else is logged, and
        `server_error` closes the socket with CLOSE_SERVER_ERROR, so that the client
        reconnects and resynchronises."""
        if isinstance(error, UNAVAILABLE):
            logger.warning("%s socket: a write was refused: %r", self.kind, error)
            return await self.send_json(self.error_frame(GameError("storage_unavailable"), seq))
        logger.error("%s socket: a frame failed", self.kind, exc_info=error)
        await self.send_json(self.error_frame(GameError("server_error"), seq))
        await self.close(code=CLOSE_SERVER_ERROR)

    async def send_json(self, content: dict, close: bool | int = False) -> None:
        await self.send_frame({"type": "websocket.send", "text": _encode(content)})
        if self.received_at is not None:  # the reply to the frame being handled
            self.meters.reply_seconds.observe(time.perf_counter() - self.received_at)
            self.received_at = None
        if close:
            await self.close(close)

    def error_frame(self, error: GameError, seq: int | None = None) -> dict:
        """The one error frame: a stable code and text in the socket's language; a numbered
        socket's echoes the frame's seq (None: it had no valid one)."""
        self.meters.error_frame(error.code)
        frame = {"type": "error", "seq": seq} if self.numbered else {"type": "error"}
        with translation.override(self.language):
            return frame | {"error": error.code, "message": error.message}

    async def refuse(self, error: GameError, close_code: int) -> None:
        """Accept only to say why, then close: a browser never sees a refused handshake's code."""
        await self.accept()
        await self.close_saying(error, close_code)

    async def close_saying(self, error: GameError, close_code: int) -> None:
        """One error frame saying why, then the close."""
        await self.send_json(self.error_frame(error))
        await self.close(code=close_code)

    async def listen(self, group: str) -> None:
        """Join a group; Channels leaves every group of `self.groups` on disconnect."""
        self.groups.append(group)
        await self.channel_layer.group_add(group, self.channel_name)

    async def player_logout(self, message: dict) -> None:
        """The player logged out of `message["session"]`; None: of every session but "keep"
        (a password change), whose sockets learn its new key "kept_as" (game.services.sessions)."""
        mine = self.session_key()
        if mine is not None and mine == message.get("keep"):
            self.renamed_session = message["kept_as"]
        elif message.get("session") in (None, mine):
            await self.close(code=CLOSE_LOGGED_OUT)

    def session_key(self) -> str | None:
        """The key of the session the socket opened in, or the one it was renamed to since."""
        opened_in = getattr(self.scope.get("session"), "session_key", None)
        return getattr(self, "renamed_session", opened_in)


async def _dispatch_each(sources: list, dispatch) -> None:
    """Every message of every source to `dispatch`, one at a time in the order they arrive,
    until a handler raises (StopConsumer when the client has left)."""
    turn = asyncio.Lock()

    async def read(source) -> None:
        while True:
            message = await source()
            async with turn:
                await dispatch(message)

    readers = [asyncio.ensure_future(read(source)) for source in sources]
    try:
        await asyncio.gather(*readers)
    finally:
        for reader in readers:
            reader.cancel()
        await asyncio.gather(*readers, return_exceptions=True)


def _beneath_session(send):
    """The send beneath Channels' session wrapper, for frames: the wrapper saves a changed
    session on an HTTP response only, and for a frame just reads the session twice."""
    wrapper = getattr(send, "__self__", None)
    return wrapper.real_send if isinstance(wrapper, InstanceSessionWrapper) else send


def _unwrapped(user):
    """The user behind Channels' lazy object: each attribute read through it costs a call."""
    wrapped = getattr(user, "_wrapped", empty)
    return user if wrapped is empty else wrapped


_CARDS = {
    (rank, free): orjson.dumps({"rank": rank, "free": free}).decode()
    for rank in range(1, 14)
    for free in (True, False)
}


def _dumps(content: dict) -> str:
    """Compact JSON (an eighth smaller than json's default), by orjson: a fifth of the time."""
    return orjson.dumps(content, option=orjson.OPT_NON_STR_KEYS).decode()


def _encode(content: dict) -> str:
    """A frame as compact JSON; a view's heart (25 small objects, most of a state frame's bytes
    and encoding time) is joined from pieces encoded once."""
    view = content.get("view")
    try:
        cards = ",".join(
            "null" if c is None else _CARDS[c["rank"], c["free"]] for c in view["heart"]
        )
    except (KeyError, TypeError):
        return _dumps(content)
    text = _dumps({**content, "view": {**view, "heart": None}})
    return text.replace('"heart":null', f'"heart":[{cards}]', 1)  # the first: the view's own
