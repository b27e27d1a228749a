"""Reads about guests: who plays in a browser session without an account, and who is one."""

from django.contrib.auth import get_user_model

from game.models import Guest

SESSION_GUEST = "h2h_guest"  # the session's entry naming its guest's user id


def guest_player(*, session):
    """The guest user who plays in `session`, or None (reading it loads the session, so an
    expired or unknown session has none)."""
    user_id = session.get(SESSION_GUEST)
    if user_id is None:
        return None
    return get_user_model().objects.filter(pk=user_id, guest__isnull=False).first()


def is_guest(*, player_id: int) -> bool:
    return Guest.objects.filter(user_id=player_id).exists()
