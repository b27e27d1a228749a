"""What every realtime socket shares: frame decoding, a rate limit, one error frame, refusals,
and a cap on how many are open.

Anyone may open these sockets, so each process counts them: a logged-in user's per user
(REALTIME_SOCKETS_PER_USER), an anonymous one's per client address
(REALTIME_SOCKETS_PER_ADDRESS; an IPv6 address by its /64, the block one subscriber is given).
One more is told `too_many_sockets` and closed with CLOSE_TOO_MANY_SOCKETS, as the play socket.
The address is the scope's client: behind a proxy, daphne's --proxy-headers sets it from
X-Forwarded-For, which the proxy must overwrite (docs/deployment.md).
"""

import ipaddress
import json
import time
from collections.abc import Hashable

from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.conf import settings
from django.utils import translation

from game.presence import CLOSE_TOO_MANY_SOCKETS, LogoutClose, SocketCount, player_group
from game.realtime.errors import RealtimeError
from game.services import GameError
from game.sockets import decode_frame, socket_language

CLOSE_LOGIN_REQUIRED = 4001
CLOSE_FORBIDDEN = 4003
CLOSE_NOT_FOUND = 4004

per_user = SocketCount(lambda: settings.REALTIME_SOCKETS_PER_USER)
per_address = SocketCount(lambda: settings.REALTIME_SOCKETS_PER_ADDRESS)


class RealtimeConsumer(LogoutClose, AsyncJsonWebsocketConsumer):
    """A JSON socket whose frames are {"type": ...}; `frames` maps a type to its handler."""

    frames: dict[str, str] = {}
    # A token bucket: these sockets carry a few frames a minute, so a small one.
    burst, per_second = 20, 5

    async def websocket_connect(self, message) -> None:
        self.language = socket_language(self.scope)
        self.user = self.scope["user"]
        self.tokens, self.refilled = float(self.burst), time.monotonic()
        self.counted = self._count_in()
        if self.counted is None:
            return await self.refuse(GameError("too_many_sockets"), CLOSE_TOO_MANY_SOCKETS)
        await super().websocket_connect(message)

    async def websocket_disconnect(self, message) -> None:
        if self.__dict__.get("counted"):
            count, key = self.counted
            count.discard(key=key, channel=self.channel_name)
        await super().websocket_disconnect(message)

    async def dispatch(self, message: dict) -> None:
        # A game's group is the play sockets' too, and they may add messages of their own
        # (game.*): a spectator or a race room passes over those it has no use for.
        if message["type"].startswith("game.") and not hasattr(self, get_handler_name(message)):
            return
        await super().dispatch(message)

    async def receive(self, text_data=None, bytes_data=None) -> None:
        # Decoded here, not by the JSON consumer, so malformed JSON gets an error frame
        # instead of an exception that closes the socket with 1011.
        try:
            self._throttle()
            frame = decode_frame(text_data, refusal=RealtimeError)
            handler = self.frames.get(frame.get("type"))
            if handler is None:
                raise RealtimeError("unknown_frame")
            await getattr(self, handler)(frame)
        except GameError as error:
            await self.send_json(self.error_frame(error))

    def error_frame(self, error: GameError) -> dict:
        """The one error frame of these sockets: a stable code and text in the socket's language."""
        with translation.override(self.language):
            return {"type": "error", "error": error.code, "message": error.message}

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

    async def close_on_logout(self) -> None:
        """A logged-in socket closes when its session logs out, as the play socket does."""
        if self.user.is_authenticated:
            await self.listen(player_group(player_id=self.user.pk))

    def require_login(self) -> None:
        if not self.user.is_authenticated:
            raise GameError("login_required")

    def _count_in(self) -> tuple[SocketCount, Hashable] | None:
        """Count the socket against its user's cap, or its address's; None if that is full."""
        if self.user.is_authenticated:
            count, key = per_user, self.user.pk
        else:
            count, key = per_address, client_address(self.scope)
        return (count, key) if count.add(key=key, channel=self.channel_name) else None

    def _throttle(self) -> None:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.refilled) * self.per_second)
        self.refilled = now
        if self.tokens < 1:
            raise GameError("rate_limited")
        self.tokens -= 1

    @classmethod
    async def encode_json(cls, content) -> str:
        return json.dumps(content, separators=(",", ":"))


def client_address(scope: dict) -> str | None:
    """The socket's client address, an IPv6 one as its /64; None if the server names none."""
    host = (scope.get("client") or [None])[0]
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host
    if address.version == 4:
        return str(address)
    if address.ipv4_mapped:
        return str(address.ipv4_mapped)
    return str(ipaddress.ip_network(f"{address}/64", strict=False))
