"""The one base every socket of the site stands on (play, live boards, watch, race): transport
only. `Socket` chooses the language, caps how many sockets are open, decodes and rate-limits
each frame, builds every error frame, refuses (accept, one error frame, close) and closes when
the session logs out. A consumer says only what is its own: its frames, its cap, its bucket.

Beneath it: how messages reach its handlers (game.sockets.dispatch), a frame's text
(game.sockets.frames) and the counts that cap it (game.sockets.counts).

docs/protocol.md gives the frames, error codes and close codes; a refused frame never closes
the socket, except a flood (`flooding`, CLOSE_FLOODING).
"""

import asyncio
import contextlib
import functools
import logging
import random
import time
from collections.abc import Hashable
from types import SimpleNamespace

from autobahn.exception import Disconnected
from channels.exceptions import StopConsumer
from channels.sessions import InstanceSessionWrapper
from django.utils import translation
from django.utils.functional import empty

from game.domain.errors import GameError
from game.runtime.metrics import socket_meters
from game.services.groups import player_group
from game.sockets.counts import SocketCount
from game.sockets.dispatch import OneLoopConsumer
from game.sockets.frames import decode_frame, encode_frame
from game.sockets.login import session_now
from game.sockets.ratelimit import FrameLimiter, Verdict
from game.storage.channel_layer import Link, layer_failed, link_of, on_layer
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
CLOSE_LIVE_PAUSED = 4013  # the channel layer is down: live updates paused, try again shortly
# A handler failed in a way no error code names (`server_error` first): the client reconnects,
# and the greeting's snapshot shows what the server holds. Never 1011, which says nothing.
CLOSE_SERVER_ERROR = 4500

# While the channel layer is down a socket tries to join its groups again after REJOIN_S,
# doubling to REJOIN_MAX_S (each pause jittered by half): back within a second of the layer.
REJOIN_S, REJOIN_MAX_S = 0.1, 1.0


def socket_language(scope: dict) -> str:
    """The socket's language, chosen as Django chooses a page's: cookie, then Accept-Language."""
    headers = dict(scope.get("headers", []))
    accept = headers.get(b"accept-language", b"").decode("latin-1")
    request = SimpleNamespace(
        COOKIES=scope.get("cookies", {}), META={"HTTP_ACCEPT_LANGUAGE": accept}
    )
    return translation.get_language_from_request(request)


class Socket(OneLoopConsumer):
    """A JSON socket of the site. A subclass gives its `kind`, `frame_limiter` and
    `counted_in`, and handles each admitted frame in `receive_frame`; `connect` accepts or
    refuses."""

    kind = "socket"  # its label in the metrics (game.runtime.metrics): play, boards, watch, race
    numbered = False  # True: frames carry a `seq` (`seq_of`), which error frames echo
    login_required = False  # True: a socket with no player is refused with CLOSE_LOGIN_REQUIRED
    closes_on_logout = True  # a logged-in socket joins its player's group (game.services.sessions)
    frame_error: type[GameError] = GameError  # its `bad_frame` says what this socket wants
    # True: without the channel layer it has nothing to show, so while the layer is down it is
    # refused, or closed, with CLOSE_LIVE_PAUSED (the live boards, spectating, race rooms)
    needs_layer = False
    received_at: float | None = None  # while a frame awaits its reply: when it came
    accepted = closing = False  # the server accepted the handshake; it closes the socket
    close_code: int | None = None  # the client's, once it has gone
    layer_lost = False  # a group may be missing: join them all again before reading on
    layer_failures = 0  # channel-layer failures since a message last came: the back-off

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

    async def consume(self, sources: list) -> None:
        """The socket's life, from its handshake to its end, whichever way it ends."""
        self.send_frame = _beneath_session(self.base_send)
        self.language, self.meters = socket_language(self.scope), socket_meters(self.kind)
        self.admitted = asyncio.Event()
        if self.channel_layer is not None:
            self.outages_seen = link_of(self.channel_layer).outages
        # The socket's life: what websocket_connect takes (its place in its count, its groups,
        # its consumer's own state) is given back on leaving it, whichever way the socket ends.
        async with contextlib.AsyncExitStack() as self.life:
            try:
                await super().consume(sources)
            except Disconnected:
                pass  # the client left while a frame was on its way to it: an ordinary end
            except Exception as error:
                await self.close_after_failure(error)

    async def websocket_connect(self, message: dict) -> None:
        self.life.push_async_callback(self._ended)  # whichever way the socket ends from here
        try:
            await self._admit()
        finally:
            self.admitted.set()  # the channel layer's messages may come now

    async def _admit(self) -> None:
        """Refuse the socket, or take its place in its count, join its groups and connect."""
        self.user = await self.player_of(_unwrapped(self.scope["user"]))
        self.limiter = self.frame_limiter()
        if self.login_required and not self.user.is_authenticated:
            return await self.refuse(GameError("login_required"), CLOSE_LOGIN_REQUIRED)
        count, key = self.counted_in()
        if not self.life.enter_context(count.held(key=key, channel=self.channel_name)):
            return await self.refuse(GameError("too_many_sockets"), CLOSE_TOO_MANY_SOCKETS)
        self.meters.open.inc()
        self.life.callback(self.meters.open.dec)
        if self.needs_layer and link_of(self.channel_layer).resting():
            return await self.refuse(GameError("live_paused"), CLOSE_LIVE_PAUSED)
        if self.closes_on_logout and self.user.is_authenticated:
            await self.listen(player_group(player_id=self.user.pk))
        await self.connect()

    async def websocket_disconnect(self, message: dict) -> None:
        self.close_code = message.get("code")
        raise StopConsumer  # the socket's life ends (consume): everything is given back there

    async def _ended(self) -> None:
        """The consumer's own end (`disconnect`), then its groups left."""
        try:
            await self.disconnect(self.close_code)
        finally:
            await self.leave_groups()

    async def close_after_failure(self, error: Exception) -> None:
        """A handler raised a failure that no error frame names (on connect, or on a message of
        the channel layer): logged, and the socket closes with CLOSE_SERVER_ERROR, never 1011,
        so that the client reconnects and resynchronises."""
        logger.error("%s socket failed", self.kind, exc_info=error)
        with contextlib.suppress(Exception):  # the client may have gone already
            if not self.accepted:
                await self.accept()
            await self.close_saying(GameError("server_error"), CLOSE_SERVER_ERROR)

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
        await self.send_frame({"type": "websocket.send", "text": encode_frame(content)})
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

    async def accept(self, subprotocol=None, headers=None) -> None:
        self.accepted = True
        await super().accept(subprotocol, headers)

    async def close(self, code=None, reason=None) -> None:
        self.closing = True
        await super().close(code, reason)

    async def listen(self, group: str) -> None:
        """Join a group; the socket leaves it when it ends. A group the channel layer does not
        take now is joined once it answers again (channel_messages)."""
        self.groups.append(group)
        if not await self._join(group):
            self.layer_lost = True

    async def _join(self, group: str) -> bool:
        layer, channel = self.channel_layer, self.channel_name
        return await on_layer("join", lambda: layer.group_add(group, channel), layer=layer)

    async def leave_groups(self) -> None:
        """Leave every group now, as far as the channel layer answers (a restarted Redis has
        forgotten them anyway)."""
        layer, channel, groups, self.groups = self.channel_layer, self.channel_name, self.groups, []
        for group in groups:
            leave = functools.partial(layer.group_discard, group, channel)
            await on_layer("leave", leave, layer=layer)

    async def channel_messages(self) -> dict:
        """The socket's next message from the channel layer, read once the socket is admitted.
        When the layer fails: {"type": "layer.down"}, then, once it answers again and has taken
        back every group of the socket, {"type": "layer.back"}. An outage this process met
        elsewhere meanwhile counts as one here: the groups may be gone with a restarted Redis."""
        await self.admitted.wait()
        link = link_of(self.channel_layer)
        if self.layer_lost:
            await self._rejoin(link)
            return {"type": "layer.back"}
        try:
            message = await self.channel_receive()
        except Exception as error:  # whatever the layer raises: the socket outlives it
            layer_failed(self.channel_layer, "receive", error)
            message = None
        if message is None or link.outages != self.outages_seen:
            self.layer_lost, self.layer_failures = True, self.layer_failures + 1
            return {"type": "layer.down"}
        self.layer_failures = 0
        return message

    async def _rejoin(self, link: Link) -> None:
        """Wait, backing off, until the layer answers again and takes back every group (one
        socket a process tries each layer.RETRY_S while it is down; the others then follow)."""
        attempt = self.layer_failures
        while True:
            await asyncio.sleep(_rejoin_pause(attempt))
            attempt += 1
            if await self._joined_all() and link.up:
                break
        self.layer_lost, self.outages_seen = False, link.outages

    async def _joined_all(self) -> bool:
        for group in self.groups:
            if not await self._join(group):
                return False
        return True

    async def layer_down(self, message: dict) -> None:
        """The channel layer failed. A socket that needs it closes, saying live updates are
        paused (its page reconnects shortly); any other goes on without it."""
        if self.needs_layer and not self.closing:
            await self.close_saying(GameError("live_paused"), CLOSE_LIVE_PAUSED)

    async def layer_back(self, message: dict) -> None:
        """The layer has the socket's groups back, but what they carried meanwhile is lost: a
        logout, another tab's move. So the socket asks the database whether its session still
        holds (if not, it closes as on a logout) before it shows what changed (`resumed`)."""
        if self.closing:
            return
        if not await self.still_signed_in():
            return await self.close(code=CLOSE_LOGGED_OUT)
        await self.resumed()

    async def resumed(self) -> None:
        """After an outage of the channel layer, with the session still valid: catch up."""

    async def still_signed_in(self) -> bool:
        """Whether the socket's session, read afresh, still makes it the player it is (a
        logout, a password changed elsewhere, a deleted account or a guest's sign-up: no)."""
        if not self.user.is_authenticated:
            return True
        self.scope["session"], user = await session_now(self.session_key())
        player = await self.player_of(user)
        return player.pk == self.user.pk

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


def _rejoin_pause(attempt: int) -> float:
    return min(REJOIN_MAX_S, REJOIN_S * 2 ** min(attempt, 10)) * random.uniform(0.5, 1.0)


def _beneath_session(send):
    """The send beneath Channels' session wrapper, for frames: the wrapper saves a changed
    session on an HTTP response only, and for a frame just reads the session twice."""
    wrapper = getattr(send, "__self__", None)
    return wrapper.real_send if isinstance(wrapper, InstanceSessionWrapper) else send


def _unwrapped(user):
    """The user behind Channels' lazy object: each attribute read through it costs a call."""
    wrapped = getattr(user, "_wrapped", empty)
    return user if wrapped is empty else wrapped
