"""The site's session engine (SESSION_ENGINE): Django's database sessions, keeping the index of
logged-in sessions (game.models.PlayerSession) right wherever Django moves or clears them.

A login writes a session's index row (game.services.sessions). Here, a session whose key cycles
(a password change's update_session_auth_hash, a login, a rotated secret key) takes its row to
the new key, and `manage.py clearsessions` also removes the rows of sessions that are gone:
expired, logged out, or ended at their next request by a password changed elsewhere.
"""

from django.contrib.sessions.backends.db import SessionStore as DatabaseStore

from game.models import PlayerSession


class SessionStore(DatabaseStore):
    def cycle_key(self) -> None:
        old = self.session_key
        super().cycle_key()
        if old:
            PlayerSession.objects.filter(session_key=old).update(session_key=self.session_key)

    async def acycle_key(self) -> None:
        old = self.session_key
        await super().acycle_key()
        if old:
            moved = PlayerSession.objects.filter(session_key=old)
            await moved.aupdate(session_key=self.session_key)

    @classmethod
    def clear_expired(cls) -> None:
        super().clear_expired()
        live = cls.get_model_class().objects.values("session_key")
        PlayerSession.objects.exclude(session_key__in=live).delete()
