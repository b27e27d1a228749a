"""Racing again: for REMATCH_WINDOW after a race ends, each of its racers who presses "Race
again" is entered into one new room on a fresh deal the solver wins, the rematch, which the
old room links to while its own result table stays at its link. The rematch is a quick room:
it starts by itself once two are in (race_enter_quick), with no Ready.

Several racers press at once, on different processes: each reads the old room unlocked, and
the first to link a room of its own by one conditional update (the room has no rematch yet)
makes the rematch; the others' update matches no row, their room goes with their savepoint,
and they join the one that was linked.
"""

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from game.domain.deal_codes import code_fresh_winnable
from game.domain.errors import RaceError
from game.models import RaceRoom
from game.selectors.races import rematch_open_until
from game.services.groups import race_group
from game.services.publish import publish_on_commit
from game.services.quick import race_enter_quick
from game.services.races import room_open, room_parse

Status = RaceRoom.Status


def race_again(*, player, room: str) -> RaceRoom:
    """The rematch of `room`, made by the first racer to ask for it, with `player` entered."""
    old = RaceRoom.objects.select_related("rematch").filter(room=room_parse(room=room)).first()
    if old is None:
        raise RaceError("no_such_room")
    _check_may_race_again(old, player)
    rematch = old.rematch or _rematch_made(old, player)
    return race_enter_quick(player=player, room=rematch)


def _check_may_race_again(room: RaceRoom, player) -> None:
    until = rematch_open_until(room)
    if until is None:
        raise RaceError("race_not_over")
    if not room.entries.filter(player=player).exists():
        raise RaceError("not_a_racer")
    if timezone.now() > until:
        raise RaceError("rematch_too_late")


def _rematch_made(old: RaceRoom, player) -> RaceRoom:
    """A new room linked as `old`'s rematch, or the one another racer linked first."""
    with transaction.atomic():
        made = room_open(code=code_fresh_winnable(), fresh=True, creator=player, quick=True)
        if _rematch_linked(old, made):
            return made
        transaction.set_rollback(True)  # overtaken: this room was never anyone's
    return RaceRoom.objects.get(rematch_of=old)


def _rematch_linked(old: RaceRoom, made: RaceRoom) -> bool:
    """One conditional update: link `made` if `old` has no rematch yet, as a change of the
    room (its version goes up and its sockets show the link)."""
    unlinked = RaceRoom.objects.filter(pk=old.pk, rematch__isnull=True)
    now = timezone.now()
    if not unlinked.update(rematch=made, version=F("version") + 1, touched_at=now):
        return False
    version = RaceRoom.objects.values_list("version", flat=True).get(pk=old.pk)
    publish_on_commit(race_group(old.room), {"type": "race.room", "version": version})
    return True
