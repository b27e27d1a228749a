"""Accounts beyond allauth's flows: leaving, and the e-mail address of an older account.

Leaving deletes an account at once, with every row that refers to it: in one transaction
the profile, every game with its log and result (so the results leave every board, whose
listeners hear it after commit), the flags on them, the follows both ways, the race entries,
the presence rows and the stored sessions; every open socket of the account closes after
commit. What stays refers to nobody: the race rooms the player opened (their creator becomes
null) and the boards' version numbers. A race the player was in goes on for the others
without their entry.
"""

from allauth.account.models import EmailAddress
from django.db import transaction
from django.utils import timezone

from game.models import RaceEntry, RaceRoom
from game.services.boards import board_results_left, boards_of_player
from game.services.races import MIN_RACERS
from game.services.rooms import room_bump, room_racing
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


@transaction.atomic
def account_email_set(*, user, email: str) -> None:
    """`email` becomes the account's one address, primary as allauth keeps it (User.email too),
    so a password reset reaches it."""
    EmailAddress.objects.filter(user=user).exclude(email=email).delete()
    address, _created = EmailAddress.objects.get_or_create(user=user, email=email)
    address.set_as_primary()
