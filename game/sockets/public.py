"""What the public sockets (a live board's, a spectator's, a race room's: anyone may open them)
add to game.sockets.base.Socket: frames dispatched by their type, a small bucket that only
refuses, and a cap on how many are open.

Their frames carry a few requests a minute, so a bucket of 20 refilled at 5 a second; a frame
beyond it is told `rate_limited`, and the socket stays open however long it floods (nothing
it asks for changes a game). Anyone may open these sockets, so each process counts them: a
logged-in user's per user (REALTIME_SOCKETS_PER_USER), an anonymous one's per client address
(REALTIME_SOCKETS_PER_ADDRESS; an IPv6 address by its /64, the block one subscriber is given).
One more is told `too_many_sockets` and closed with CLOSE_TOO_MANY_SOCKETS, as the play socket.
The address is the scope's client: behind a proxy, daphne's --proxy-headers sets it from
X-Forwarded-For, which the proxy must overwrite (docs/deployment.md).
"""

import ipaddress
from collections.abc import Hashable

from django.conf import settings

from game.domain.errors import FrameError, GameError
from game.sockets.base import Socket
from game.sockets.counts import SocketCount
from game.sockets.ratelimit import FrameLimiter

BURST, RATE = 20, 5

per_user = SocketCount(lambda: settings.REALTIME_SOCKETS_PER_USER)
per_address = SocketCount(lambda: settings.REALTIME_SOCKETS_PER_ADDRESS)


class PublicSocket(Socket):
    """A JSON socket whose frames are {"type": ...}; `frames` maps a type to its handler."""

    frames: dict[str, str] = {}
    frame_error = FrameError
    needs_layer = True  # what it shows comes over the channel layer's groups

    def frame_limiter(self) -> FrameLimiter:
        return FrameLimiter(rate=RATE, burst=BURST, closes=False)

    def counted_in(self) -> tuple[SocketCount, Hashable]:
        """Its user's count if logged in, else its address's."""
        if self.user.is_authenticated:
            return per_user, self.user.pk
        return per_address, client_address(self.scope)

    async def receive_frame(self, frame: dict, seq: int | None) -> None:
        kind = frame.get("type")
        handler = self.frames.get(kind) if isinstance(kind, str) else None
        if handler is None:
            raise FrameError("unknown_frame")
        await getattr(self, handler)(frame)

    def require_login(self) -> None:
        if not self.user.is_authenticated:
            raise GameError("login_required")


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
