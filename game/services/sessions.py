"""Telling a player's sockets that a session ended, across server processes.

Every logged-in play, watch and race socket is in the group `player.<id>` (game.sockets.base).
Logging out (Django's user_logged_out signal) tells that group, through the channel layer, to
close the sockets of the session that ended; they close with CLOSE_LOGGED_OUT, like a socket
that was never logged in. Other devices' sessions stay valid, so their sockets stay open.

A password change ends every other session (Django's session auth hash no longer matches
theirs), so it tells the group to close the sockets of every session but the one that made
the change. That session gets a new key (update_session_auth_hash), which its sockets learn
from the same message, so that logging out of it later still closes them.

A deleted account ends every session: the stored ones are deleted with it, and the same
message, marked `deleted`, closes all of its sockets once the deletion commits (the live
boards too, which a logout leaves open).
"""

from importlib import import_module

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.contrib.auth import SESSION_KEY
from django.contrib.auth.signals import user_logged_out
from django.dispatch import receiver
from django.utils import timezone

from game.services.groups import player_group
from game.services.publish import publish_on_commit


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


def end_every_session(*, player_id: int) -> int:
    """Delete the player's stored sessions now and close all of their sockets after commit;
    returns how many sessions were deleted."""
    keys = _stored_sessions_of(player_id)
    store = import_module(settings.SESSION_ENGINE).SessionStore
    for key in keys:
        store(session_key=key).delete()  # the store's own delete: a cached one leaves its cache
    message = {"type": "player.logout", "session": None, "deleted": True}
    publish_on_commit(player_group(player_id=player_id), message)
    return len(keys)


def _stored_sessions_of(player_id: int) -> list[str]:
    """The keys of the player's unexpired sessions in the session table. Sessions are stored
    by key only, so each one is read; engines without a table (cache or cookie sessions) list
    none, and theirs log nobody in once the account is gone."""
    store = import_module(settings.SESSION_ENGINE).SessionStore
    if not hasattr(store, "get_model_class"):
        return []
    sessions = store.get_model_class().objects.filter(expire_date__gt=timezone.now())
    return [
        session.session_key
        for session in sessions.iterator()
        if session.get_decoded().get(SESSION_KEY) == str(player_id)
    ]


def close_player_sockets(*, player_id: int) -> None:
    """Close every socket of the player, in every session (a guest who became an account)."""
    _tell_player(player_id, {"type": "player.logout", "session": None})


def _tell_player(player_id: int, message: dict) -> None:
    layer = get_channel_layer()
    if layer is not None:
        async_to_sync(layer.group_send)(player_group(player_id=player_id), message)
