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
boards too, which a logout leaves open). Its sessions are found by the index of logged-in
sessions (PlayerSession): a login writes the session's row, a logout removes it, and the
session engine (game.storage.sessions) moves it when the key cycles and clears the rows of
sessions that are gone. So a deletion reads its own few rows, never every session of the site.
"""

from importlib import import_module

from django.conf import settings
from django.contrib.auth.signals import user_logged_in, user_logged_out
from django.dispatch import receiver
from django.utils import timezone

from game.models import PlayerSession
from game.services.groups import player_group
from game.services.publish import publish_on_commit


@receiver(user_logged_in)
def index_session_on_login(sender, request, user, **kwargs) -> None:
    """Runs once login has given the session its key: a new one, or none yet when the session
    had been another account's (saved now, so that it has one)."""
    session = getattr(request, "session", None)
    if session is None:
        return
    if session.session_key is None:
        session.save()
    now = timezone.now()
    PlayerSession.objects.update_or_create(
        session_key=session.session_key,
        defaults={"user": user},
        create_defaults={"user": user, "created_at": now},
    )


@receiver(user_logged_out)
def close_sockets_on_logout(sender, request, user, **kwargs) -> None:
    """Runs before the session is flushed, so its key still names the sockets to close."""
    session = getattr(request, "session", None)
    key = getattr(session, "session_key", None)
    if key:
        PlayerSession.objects.filter(session_key=key).delete()
    if user is not None:
        _tell_player(user.pk, {"type": "player.logout", "session": key})


def close_other_sessions(*, player_id: int, keep: str, kept_as: str) -> None:
    """Close the sockets of every session of the player but `keep`, which is now `kept_as`."""
    message = {"type": "player.logout", "session": None, "keep": keep, "kept_as": kept_as}
    _tell_player(player_id, message)


def end_every_session(*, player_id: int) -> int:
    """Delete the player's sessions now, each one the index names, and close all of their
    sockets after commit; returns how many sessions were ended."""
    indexed = PlayerSession.objects.filter(user_id=player_id)
    keys = list(indexed.values_list("session_key", flat=True))
    store = import_module(settings.SESSION_ENGINE).SessionStore
    for key in keys:
        store(session_key=key).delete()  # the store's own delete: a cached one leaves its cache
    indexed.delete()
    message = {"type": "player.logout", "session": None, "deleted": True}
    publish_on_commit(player_group(player_id=player_id), message)
    return len(keys)


def close_player_sockets(*, player_id: int) -> None:
    """Close every socket of the player, in every session (a guest who became an account)."""
    _tell_player(player_id, {"type": "player.logout", "session": None})


def _tell_player(player_id: int, message: dict) -> None:
    """Best effort, as every publication: while the channel layer is down the logout still
    happens, and each socket of the player asks the database whether its session holds once
    the layer is back (game.sockets.base)."""
    publish_on_commit(player_group(player_id=player_id), message)
