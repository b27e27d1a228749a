"""Run inside `manage.py shell`: creates players with logged-in sessions, prints them as JSON."""

import json

from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
from django.contrib.sessions.backends.db import SessionStore

from game.models import Profile


def session_for(user) -> str:
    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = settings.AUTHENTICATION_BACKENDS[0]
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    return session.session_key


def main(count: int, prefix: str) -> None:
    users = get_user_model()
    players = []
    for number in range(count):
        name = f"{prefix}{number}"
        user, created = users.objects.get_or_create(username=name)
        if created:
            user.set_unusable_password()  # hashing 200 passwords would take a minute
            user.save()
            Profile.objects.create(user=user, display_name=name)
        players.append({"name": name, "sessionid": session_for(user)})
    print(json.dumps(players))
