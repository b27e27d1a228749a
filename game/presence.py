"""A player's open sockets: a cap on how many, and a group so that logging out closes them.

Every logged-in socket joins the group `player.<id>`. Logging out (Django's user_logged_out
signal) tells that group, through the channel layer and so across server processes, to close
the sockets of the session that ended; they close with CLOSE_LOGGED_OUT, like a socket that
was never logged in. Other devices' sessions stay valid, so their sockets stay open.

A password change ends every other session (Django's session auth hash no longer matches
theirs), so it tells the group to close the sockets of every session but the one that made
the change. That session gets a new key (update_session_auth_hash), which its sockets learn
from the same message, so that logging out of it later still closes them.

At most SOCKETS_PER_PLAYER sockets per player are open on one server process (settings,
H2H_SOCKETS_PER_PLAYER, default 5); one more is told `too_many_sockets` and closed with
CLOSE_TOO_MANY_SOCKETS. The count lives in the process, so a crash never leaves stale entries.
"""

from collections import defaultdict
from collections.abc import Callable, Hashable

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.contrib.auth.signals import user_logged_out
from django.dispatch import receiver

CLOSE_LOGGED_OUT = 4001  # the same code as a socket opened without a login
CLOSE_TOO_MANY_SOCKETS = 4009


def player_group(*, player_id: int) -> str:
    """The channel-layer group of one player's sockets."""
    return f"player.{player_id}"


class SocketCount:
    """Sockets open on this process per key (a player, an address), at most `cap()` each."""

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


sockets = SocketCount(lambda: settings.SOCKETS_PER_PLAYER)  # the play sockets, per player


class LogoutClose:
    """Mixin for a consumer in the player's group: close when its session logs out."""

    async def player_logout(self, message: dict) -> None:
        """The player logged out of `message["session"]`; None: of every session but "keep"."""
        mine = self.session_key()
        if mine is not None and mine == message.get("keep"):
            self.renamed_session = message["kept_as"]
        elif message.get("session") in (None, mine):
            await self.close(code=CLOSE_LOGGED_OUT)

    def session_key(self) -> str | None:
        """The key of the session the socket opened in, or the one it was renamed to since."""
        opened_in = getattr(self.scope.get("session"), "session_key", None)
        return getattr(self, "renamed_session", opened_in)


class PlayerSockets(LogoutClose):
    """Mixin for a consumer: join and leave the player's group, and close on logout.

    The consumer calls `await self.player_join()` before accepting (False: refuse it) and
    `await self.player_leave()` on disconnect.
    """

    async def player_join(self) -> bool:
        self.player_id = self.scope["user"].pk
        if not sockets.add(key=self.player_id, channel=self.channel_name):
            del self.player_id
            return False
        group = player_group(player_id=self.player_id)
        await self.channel_layer.group_add(group, self.channel_name)
        return True

    async def player_leave(self) -> None:
        if not hasattr(self, "player_id"):
            return
        sockets.discard(key=self.player_id, channel=self.channel_name)
        group = player_group(player_id=self.player_id)
        await self.channel_layer.group_discard(group, self.channel_name)


@receiver(user_logged_out)
def close_sockets_on_logout(sender, request, user, **kwargs) -> None:
    """Runs before the session is flushed, so its key still names the sockets to close."""
    if user is not None:
        session = getattr(request, "session", None)
        key = getattr(session, "session_key", None)
        _tell_player(user.pk, {"type": "player.logout", "session": key})


def close_other_sessions(*, player_id: int, keep: str, kept_as: str) -> None:
    """Close the sockets of every session of the player but `keep`, which is now `kept_as`."""
    message = {"type": "player.logout", "session": None, "keep": keep, "kept_as": kept_as}
    _tell_player(player_id, message)


def _tell_player(player_id: int, message: dict) -> None:
    layer = get_channel_layer()
    if layer is not None:
        async_to_sync(layer.group_send)(player_group(player_id=player_id), message)
