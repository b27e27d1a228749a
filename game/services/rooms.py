"""Race rooms' bookkeeping that needs no service: a change's version and its publication, the
end of a race when its last racer finishes, and who waits for a room's deal (and may not open
it meanwhile).

Imported by result_create (game.services.results), so it imports no other use case but the
ratings', which imports none.
"""

from django.utils import timezone

from game.domain.deal_codes import code_parse
from game.domain.errors import RaceError
from game.models import RaceEntry, RaceRoom, Result
from game.selectors.races import entries_waiting, room_racing
from game.services.groups import race_group
from game.services.publish import publish_on_commit
from game.services.ratings import ratings_rate_race


def room_bump(room: RaceRoom) -> None:
    """Save a changed room under its next version; its group hears of it after commit."""
    room.version += 1
    room.touched_at = timezone.now()
    room.save()
    publish_on_commit(race_group(room.room), {"type": "race.room", "version": room.version})


def room_bump_if_unchanged(room: RaceRoom) -> bool:
    """room_bump for one of several callers that read the room unlocked: one conditional
    update moves it to its next version only if it is still at the version this caller read.
    True for the caller whose update matched; the others' match no row, as every change to a
    room bumps its version."""
    now = timezone.now()
    unchanged = RaceRoom.objects.filter(pk=room.pk, version=room.version)
    if not unchanged.update(version=room.version + 1, touched_at=now):
        return False
    room.version, room.touched_at = room.version + 1, now
    publish_on_commit(race_group(room.room), {"type": "race.room", "version": room.version})
    return True


def race_result_recorded(*, result: Result) -> None:
    """A race game has its result: the room's table changed, and the last one ends the race,
    which rates its racers at once."""
    entries = RaceEntry.objects.filter(game_id=result.game_id)
    room_id = entries.values_list("room_id", flat=True).first()
    if room_id is None:
        return
    room = RaceRoom.objects.select_for_update().get(pk=room_id)
    if room.status == RaceRoom.Status.RUNNING and not room_racing(room):
        room.status = RaceRoom.Status.FINISHED
        room.finished_at = result.finished_at
        ratings_rate_race(room=room)
    room_bump(room)


def race_lobby_check(*, player, code: str) -> None:
    """RaceError("race_lobby") while `player` waits in a race of `code`: nobody opens its
    deal before the start instant shows it to every racer at once. GameError("bad_code") if
    `code` is no deal code."""
    if entries_waiting(player=player, code=code_parse(code=code)).exists():
        raise RaceError("race_lobby")
