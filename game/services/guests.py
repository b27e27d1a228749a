"""Guests: play without an account in a browser session; keep those games on signing up.

A guest is a user row that cannot log in, with a Guest row naming its session (game.models.
Guest), so every game is played on the one play path whoever plays it. Signing up in that
session moves the guest's games and results to the new account (never ranked: a guest has no
ranked daily) and removes the guest. Guests whose session has expired or gone are removed with
their games (`manage.py expire_guests`).
"""

import uuid
from datetime import datetime

from django.contrib.auth import get_user_model
from django.contrib.sessions.models import Session
from django.db import transaction
from django.utils import timezone

from game.models import Game, Guest, Presence, Result
from game.selectors.boards import boards_of_player
from game.selectors.guests import SESSION_GUEST, guest_player
from game.services.boards import board_results_adopted
from game.services.sessions import close_player_sockets


def guest_for_session(*, session):
    """The guest of `session`, made now (and the session saved) if it has none yet."""
    guest = guest_player(session=session)
    if guest is not None:
        return guest
    with transaction.atomic():
        if session.session_key is None:
            session.create()
        user = get_user_model()(username=f"guest:{uuid.uuid4().hex[:20]}")  # ":" no sign-up takes
        user.set_unusable_password()
        user.save()
        Guest.objects.create(user=user, session_key=session.session_key, created_at=timezone.now())
    session[SESSION_GUEST] = user.pk
    return user


def guest_adopt(*, session, player) -> int:
    """Move the games of `session`'s guest to the account `player` just made there, and remove
    the guest; their sockets close, and the live boards its results now join are sent again.
    How many games moved (0: the session had no guest)."""
    guest = guest_player(session=session)
    session.pop(SESSION_GUEST, None)
    if guest is None:
        return 0
    guest_id = guest.pk
    with transaction.atomic():
        boards = boards_of_player(player_id=guest_id)
        moved = Game.objects.filter(player=guest).update(player=player)
        Result.objects.filter(player=guest).update(player=player)
        board_results_adopted(boards=boards, player_id=player.pk)
        Presence.objects.filter(user=guest).update(user=player)
        guest.delete()
        transaction.on_commit(lambda: close_player_sockets(player_id=guest_id))
    return moved


def guests_expire(*, now: datetime) -> int:
    """Remove every guest whose session has expired or gone, with their games; how many."""
    live = Session.objects.filter(expire_date__gt=now).values("session_key")
    users = get_user_model().objects.filter(guest__isnull=False)
    with transaction.atomic():
        _, deleted = users.exclude(guest__session_key__in=live).delete()
    return deleted.get(Guest._meta.label, 0)
