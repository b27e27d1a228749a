"""Race rooms: 2-8 players play one deal from the same server instant; first to clear wins.

A room is a lobby until at least MIN_RACERS joined players are all ready; then it counts down to
`starts_at`, the instant every racer's clock starts. The race games are created at that
instant, never earlier, so nobody sees the deal before the others: ordinary unranked Games,
played over the play socket like any other, that the room follows through their game groups.
The table is the games' own Results in the shared order (RANK_ORDER: score, time, moves), so
the first to clear the heart wins. Every change bumps the room's version and tells its group.
Idle rooms expire: a lobby is closed, a race's unfinished games are ended as resigned.

Beginning a race is the one write that several callers make at once (every process times the
start, game.runtime.races): it reads the room unlocked, and one conditional update on its
version lets exactly one of them begin it.
"""

import secrets
from datetime import timedelta

from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone

from game.domain.deal_codes import code_fresh, code_parse
from game.domain.errors import RaceError
from game.models import Action, DailyDeal, Game, RaceEntry, RaceRoom
from game.selectors.daily import daily_today
from game.selectors.races import COUNTDOWN, MAX_RACERS, MIN_RACERS, room_racing
from game.services import LockedGame, game_resign
from game.services.publish import spectator_opened_deal
from game.services.ratings import ratings_rate_race
from game.services.rooms import room_bump, room_bump_if_unchanged

ROOM_ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ"  # no 0/O or 1/I: read aloud, typed on phones
ROOM_LENGTH = 6
IDLE = timedelta(minutes=30)
Status = RaceRoom.Status


def room_parse(*, room: object) -> str:
    """The canonical room code (upper case, spaces and dashes dropped), or "no_such_room".

    >>> room_parse(room=" k7p-2qx ")
    'K7P2QX'
    """
    text = str(room).upper().replace(" ", "").replace("-", "") if isinstance(room, str) else ""
    if len(text) != ROOM_LENGTH or any(c not in ROOM_ALPHABET for c in text):
        raise RaceError("no_such_room")
    return text


def race_create(*, player, code: str = "") -> RaceRoom:
    """A new room with its creator in it: for `code`, or for a fresh deal if it is blank."""
    fresh = not code.strip()
    code = code_fresh() if fresh else code_parse(code=code)
    if DailyDeal.objects.filter(code=code, date__gte=daily_today()).exists():
        raise RaceError("daily_today")
    _check_no_ranked_open(player, code)
    race_expire_idle()  # opening a room is the moment to tidy the idle ones away
    with transaction.atomic():
        room = room_open(code=code, fresh=fresh, creator=player)
        _enter(room, player, room.created_at)
        return room


def room_open(*, code: str, fresh: bool, creator, quick: bool = False) -> RaceRoom:
    """A new room, empty, under a room code nobody holds (a taken one is drawn again)."""
    now = timezone.now()
    for _ in range(10):
        try:
            with transaction.atomic():
                return RaceRoom.objects.create(
                    room=_new_room_code(),
                    code=code,
                    fresh=fresh,
                    quick=quick,
                    created_by=creator,
                    created_at=now,
                    touched_at=now,
                )
        except IntegrityError:  # the room code was taken: draw another
            continue
    raise RuntimeError("no free room code after ten draws")


def race_join(*, player, room: str) -> RaceRoom:
    """Join a lobby (2-8 players); joining again, or after the start, rejoins one's own entry."""
    with transaction.atomic():
        found = _found(room)
        if found.entries.filter(player=player).exists():
            return found
        _check_lobby(found)
        _check_not_quick(found)
        if found.entries.count() >= MAX_RACERS:
            raise RaceError("room_full")
        _check_no_ranked_open(player, found.code)
        _enter(found, player, timezone.now())
        room_bump(found)
        return found


def _enter(room: RaceRoom, player, now) -> None:
    """A racer waits for the room's deal: they stop watching any game of it."""
    RaceEntry.objects.create(room=room, player=player, joined_at=now)
    spectator_opened_deal(player_id=player.pk, code=room.code)


def race_leave(*, player, room: str) -> RaceRoom:
    """Leave a lobby; once the countdown has begun a racer stays in (and may resign)."""
    with transaction.atomic():
        found = _found(room)
        _check_lobby(found)
        if not found.entries.filter(player=player).delete()[0]:
            raise RaceError("not_in_room")
        room_bump(found)
        return found


def race_ready(*, player, room: str, ready) -> RaceRoom:
    """Mark oneself ready or not; when 2-8 joined players are all ready, the countdown starts."""
    if not isinstance(ready, bool):
        raise RaceError("bad_ready")
    with transaction.atomic():
        found = _found(room)
        _check_lobby(found)
        _check_not_quick(found)
        if not found.entries.filter(player=player).update(ready=ready):
            raise RaceError("not_in_room")
        entries = found.entries.all()
        if len(entries) >= MIN_RACERS and all(entry.ready for entry in entries):
            found.status = Status.RUNNING
            found.starts_at = timezone.now() + COUNTDOWN
        room_bump(found)
        return found


def race_begin_if_due(*, room: str) -> bool:
    """Create every racer's game if the start instant has come and nobody has yet; True if
    this call did. Of several callers at that instant, the one whose conditional update finds
    the room still at the version it read begins the race; the others' update matches no row
    (rooms.room_bump_if_unchanged)."""
    with transaction.atomic():
        found = _found(room, locked=False)
        if not _due(found) or not room_bump_if_unchanged(found):
            return False
        for entry in found.entries.select_related("player"):
            entry.game = _race_game(entry.player, found)
            entry.save(update_fields=["game"])
        return True


def _due(room: RaceRoom) -> bool:
    """Counting down, its start instant come, and no racer's game made yet."""
    if room.status != Status.RUNNING or room.starts_at > timezone.now():
        return False
    return not room.entries.filter(game__isnull=False).exists()


def _race_game(player, room: RaceRoom) -> Game | None:
    """The racer's game, its clock started at the room's instant: never ranked.

    An unfinished game of the same deal ends first, as a new game over it would; a ranked one
    (which joining refuses) is left alone and its player sits the race out.
    """
    for game in Game.objects.filter(player=player, code=room.code, status=Game.Status.OPEN):
        if game.ranked:
            return None
        game_resign(game=LockedGame(game.pk), player=player)
    deal = DailyDeal.objects.filter(code=room.code).first()
    return Game.objects.create(
        player=player, code=room.code, daily=deal, ranked=False, started_at=room.starts_at
    )


def race_expire_idle() -> int:
    """End every room left idle for IDLE (race_expire_if_idle); how many were looked at."""
    cutoff = timezone.now() - IDLE
    live = RaceRoom.objects.filter(status__in=[Status.LOBBY, Status.RUNNING])
    rooms = list(live.filter(touched_at__lt=cutoff).values_list("room", flat=True))
    for room in rooms:
        race_expire_if_idle(room=room)
    return len(rooms)


def race_expire_if_idle(*, room: str) -> None:
    """End the room if it sat idle for IDLE: a lobby expires; a race ends its unfinished games
    as resigned and finishes. Its page and its sockets ask this whenever they open the room."""
    with transaction.atomic():
        found = _found(room)
        cutoff = timezone.now() - IDLE
        if found.status == Status.LOBBY and found.touched_at < cutoff:
            found.status = Status.EXPIRED
            room_bump(found)
        elif found.status == Status.RUNNING and _last_activity(found) < cutoff:
            _race_abandoned(found)


def _race_abandoned(room: RaceRoom) -> None:
    for entry in room.entries.filter(game__status=Game.Status.OPEN).select_related("player"):
        game_resign(game=LockedGame(entry.game_id), player=entry.player)
    room.refresh_from_db()  # each resignation's result may have finished the race
    if room.status == Status.RUNNING and not room_racing(room):
        room.status, room.finished_at = Status.FINISHED, timezone.now()
        ratings_rate_race(room=room)
        room_bump(room)


def _last_activity(room: RaceRoom):
    moves = Action.objects.filter(game__race_entry__room=room).aggregate(last=Max("at"))["last"]
    return max(room.touched_at, moves) if moves else room.touched_at


def _found(room: str, *, locked: bool = True) -> RaceRoom:
    """The room of a code as typed, its row locked unless `locked` is False."""
    rooms = RaceRoom.objects.select_for_update() if locked else RaceRoom.objects.all()
    found = rooms.filter(room=room_parse(room=room)).first()
    if found is None:
        raise RaceError("no_such_room")
    return found


def _check_lobby(room: RaceRoom) -> None:
    if room.status == Status.RUNNING:
        raise RaceError("race_started")
    if room.status != Status.LOBBY:
        raise RaceError("race_over")


def _check_not_quick(room: RaceRoom) -> None:
    """A quick room finds its racers and starts by itself: nobody joins it or gets ready."""
    if room.quick:
        raise RaceError("quick_room")


def _check_no_ranked_open(player, code: str) -> None:
    ranked = Game.objects.filter(player=player, code=code, status=Game.Status.OPEN, ranked=True)
    if ranked.exists():
        raise RaceError("ranked_open")


def _new_room_code() -> str:
    return "".join(secrets.choice(ROOM_ALPHABET) for _ in range(ROOM_LENGTH))
