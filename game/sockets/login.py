"""The websocket handshake's login: Channels' AuthMiddlewareStack, with the session and the
user read on the sockets' database workers (game.storage.dbthread).

Channels reads them through database_sync_to_async, which opens a database connection for
every handshake and closes it afterwards (CONN_MAX_AGE is 0): on SQLite, closing the last
connection checkpoints the WAL; on PostgreSQL, opening one costs a few milliseconds. The
workers keep theirs open while there is work. The checks are Channels' own, unchanged.
"""

from importlib import import_module

from channels.auth import AuthMiddleware, get_user
from channels.sessions import CookieMiddleware, SessionMiddleware
from django.conf import settings

from game.storage.dbthread import on_db_thread

_user_of = on_db_thread(get_user.func)  # the function behind Channels' database_sync_to_async


class WorkerAuthMiddleware(AuthMiddleware):
    """AuthMiddleware, resolving the user on a database worker."""

    async def resolve_scope(self, scope: dict) -> None:
        scope["user"]._wrapped = await _user_of(scope)


@on_db_thread
def session_now(session_key: str | None) -> tuple:
    """(the session read afresh, its user): what a handshake with its cookie would find now
    (an ended session: an empty one, and AnonymousUser)."""
    session = import_module(settings.SESSION_ENGINE).SessionStore(session_key=session_key)
    return session, get_user.func({"session": session})


def login_stack(inner):
    """What AuthMiddlewareStack builds, with WorkerAuthMiddleware in AuthMiddleware's place."""
    return CookieMiddleware(SessionMiddleware(WorkerAuthMiddleware(inner)))
