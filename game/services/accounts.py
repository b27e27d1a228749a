"""Accounts beyond allauth's flows: leaving, changing the e-mail address, and the theme.

Leaving deletes an account at once, with every row that refers to it: in one transaction
the profile, every game with its log and result (so the results leave every board, whose
listeners hear it after commit), the flags on them, the follows both ways, the race entries,
the presence rows and the stored sessions; every open socket of the account closes after
commit. What stays refers to nobody: the race rooms the player opened (their creator becomes
null) and the boards' version numbers. A race the player was in goes on for the others
without their entry.
"""

import datetime

from allauth.account import app_settings as allauth_settings
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.core import signing
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.crypto import constant_time_compare, salted_hmac

from game.models import Profile, RaceEntry, RaceRoom
from game.selectors.accounts import email_in_use
from game.selectors.boards import boards_of_player
from game.selectors.races import MIN_RACERS, room_racing
from game.services.boards import board_results_left
from game.services.rooms import room_bump
from game.services.sessions import end_every_session

Status = RaceRoom.Status


def account_delete(*, user) -> None:
    """Delete `user` and everything of theirs (see the module's text)."""
    with transaction.atomic():
        boards = boards_of_player(player_id=user.pk)
        room_ids = list(RaceEntry.objects.filter(player=user).values_list("room_id", flat=True))
        rooms = RaceRoom.objects.select_for_update().filter(pk__in=room_ids)
        list(rooms)  # locked first, so no race begins with a game for the departing racer
        end_every_session(player_id=user.pk)
        user.delete()  # every foreign key to the user cascades, but a room's creator
        board_results_left(boards=boards)
        for room in rooms.all():  # read again: a room they opened no longer names them
            _racer_left(room)


def _racer_left(room: RaceRoom) -> None:
    """A racer's entry is gone: the race may be over, or a countdown short of racers."""
    begun = room.entries.filter(game__isnull=False).exists()
    if room.status == Status.RUNNING and begun and not room_racing(room):
        room.status, room.finished_at = Status.FINISHED, timezone.now()
    elif room.status == Status.RUNNING and not begun and room.entries.count() < MIN_RACERS:
        room.status, room.starts_at = Status.LOBBY, None
    room_bump(room)


# A new address counts once a link mailed to it is followed; until then nothing of it is stored,
# so the account logs in, and is reset, only by its old address, and no one can tell a taken
# address from a free one by what the site does with it afterwards.
EMAIL_CHANGE_SALT = "game.services.accounts.email_change"


def email_change_key(*, user, email: str) -> str:
    """The key of the link that makes `email` the account's address. It lasts as long as
    allauth's confirmation links, and ends once used or once the account's password changes."""
    wanted = {"user": user.pk, "email": email, "state": _state(user)}
    return signing.dumps(wanted, salt=EMAIL_CHANGE_SALT)


def _state(user) -> str:
    """What the account's address and password are now, as a hash (a key is readable)."""
    return salted_hmac(EMAIL_CHANGE_SALT, f"{user.password}|{user.email}").hexdigest()


def email_change_wanted(*, key: str):
    """(account, new address) that `key` names while its link works, else None."""
    days = datetime.timedelta(days=allauth_settings.EMAIL_CONFIRMATION_EXPIRE_DAYS)
    try:
        wanted = signing.loads(key, salt=EMAIL_CHANGE_SALT, max_age=days)
    except signing.BadSignature:
        return None
    user = get_user_model().objects.filter(pk=wanted["user"]).first()
    if user is None or not constant_time_compare(wanted["state"], _state(user)):
        return None
    if email_in_use(wanted["email"], besides=user):
        return None  # claimed by another account since the link was sent
    return user, wanted["email"]


def email_change_confirm(*, key: str):
    """Follow the link of `key`: its address becomes the account's. (account, address), or
    None if the link no longer works."""
    wanted = email_change_wanted(key=key)
    if wanted is None:
        return None
    try:
        account_email_set(user=wanted[0], email=wanted[1])
    except IntegrityError:
        return None  # another account's link to it was followed at the same moment
    return wanted


@transaction.atomic
def account_email_set(*, user, email: str) -> None:
    """`email`, proven by its link, becomes the account's one address, primary and verified as
    allauth keeps it (User.email too), so a password reset reaches it."""
    EmailAddress.objects.filter(user=user).exclude(email=email).delete()
    address, _created = EmailAddress.objects.update_or_create(
        user=user, email=email, defaults={"verified": True}
    )
    address.set_as_primary()


def account_theme_set(*, user, theme: str) -> None:
    """The site's look for `user` on every device they log in on (a game.models.Theme value)."""
    Profile.objects.filter(user=user).update(theme=theme)
