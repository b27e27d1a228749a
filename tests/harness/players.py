"""Run inside `manage.py shell`: creates players with logged-in sessions, prints them as JSON."""

import json
from importlib import import_module

from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
from django.contrib.auth.hashers import make_password
from django.contrib.sessions.models import Session
from django.utils import timezone

from game.models import PlayerSession, Profile

SessionStore = import_module(settings.SESSION_ENGINE).SessionStore
CROWD_SESSIONS_EACH = 10  # the crowd's accounts are each logged in this many times


def session_for(user) -> str:
    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = settings.AUTHENTICATION_BACKENDS[0]
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    # Indexed as a login indexes it, so that deleting the account ends it (game.services.sessions).
    PlayerSession.objects.create(
        user=user, session_key=session.session_key, created_at=timezone.now()
    )
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


def crowd(sessions: int) -> None:
    """`sessions` logged-in sessions of other accounts (CROWD_SESSIONS_EACH each), stored and
    indexed as logins store them, in a few statements."""
    count = -(-sessions // CROWD_SESSIONS_EACH)
    users = get_user_model().objects.bulk_create(
        get_user_model()(username=f"crowd{n}", password="!") for n in range(count)
    )
    store, now = SessionStore(), timezone.now()
    rows, index = [], []
    for number in range(sessions):
        user = users[number % count]
        data = {SESSION_KEY: str(user.pk), BACKEND_SESSION_KEY: "allauth", HASH_SESSION_KEY: "-"}
        key, expires = store._get_new_session_key(), store.get_expiry_date()
        rows.append(Session(session_key=key, session_data=store.encode(data), expire_date=expires))
        index.append(PlayerSession(user=user, session_key=key, created_at=now))
    Session.objects.bulk_create(rows, batch_size=500)
    PlayerSession.objects.bulk_create(index, batch_size=500)


def leaving(count: int, password: str) -> None:
    """`count` accounts with `password`, each logged in on two devices; prints their session
    keys, [[first, second], ...]."""
    hashed = make_password(password)  # once: each hash takes a good part of a second
    keys = []
    for number in range(count):
        name = f"leaving{number}"
        user = get_user_model().objects.create(username=name, password=hashed)
        Profile.objects.create(user=user, display_name=name)
        keys.append([session_for(user), session_for(user)])
    print(json.dumps(keys))
