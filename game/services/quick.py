"""The quick race: a queue in the database that puts players of close Race ratings in a room
that starts by itself.

Each waiting player is a QuickEntry: a lease that the process holding their socket renews
every round (game.runtime.quick), so that the entries of a killed process, which runs no
disconnect, expire within LEASE and are never matched. Every process that holds quick
sockets runs rounds, and any of them may match anyone: who goes with whom is
game.domain.quick_match's, and the claim of the entries is one conditional update (still
unmatched, lease still held) that only one process's round can win. On PostgreSQL the round
also reads the waiting entries with SELECT ... FOR UPDATE SKIP LOCKED, so two rounds at once
do not even try the same entries; SQLite runs one write transaction at a time.

A quick room has no Ready (race_enter_quick): it counts down QUICK_COUNTDOWN once two are
in, during which others matched to it join, and starts at once (the ordinary COUNTDOWN)
when the eighth comes in. Spans are on the quick race's clock (selectors.quick.quick_span).
"""

from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone

from game.domain.deal_codes import code_fresh_winnable
from game.domain.errors import RaceError
from game.domain.quick_match import Opening, Waiter, quick_matches
from game.models import QuickEntry, RaceEntry, RaceRoom
from game.selectors.quick import (
    quick_entries_of,
    quick_openings,
    quick_span,
    quick_waited_s,
    quick_waiting,
    race_rating,
)
from game.selectors.races import (
    COUNTDOWN,
    MAX_RACERS,
    MIN_RACERS,
    QUICK_COUNTDOWN,
    race_snapshot,
)
from game.services.publish import send_on_commit, spectator_opened_deal
from game.services.races import room_open
from game.services.rooms import room_bump

LEASE = timedelta(seconds=6)  # wall clock: a process renews its entries every round
JOIN_MARGIN = timedelta(seconds=2)  # a room this close to its start takes nobody more
Status = RaceRoom.Status
LIVE = (Status.LOBBY, Status.RUNNING)  # a matched player belongs to such a room


class _Taken(Exception):
    """Another round claimed one of these entries first."""


@dataclass
class QuickRound:
    """What one round leaves for its process's sockets to be told."""

    waiting: int
    entries: dict[str, QuickEntry]  # by the channel of the socket that holds it
    rooms: list[dict] = field(default_factory=list)  # snapshots of the rooms it changed


def quick_enqueue(*, player, channel: str) -> str | None:
    """Queue the player for the socket on `channel`; the room code instead if they are
    matched to a room not yet over (they belong to it). A player still queued from another
    tab keeps their place in the queue; the newest socket holds it."""
    now = timezone.now()
    with transaction.atomic():
        entry = QuickEntry.objects.select_for_update().filter(player=player).first()
        if entry is not None and entry.room_id and entry.room.status in LIVE:
            entry.channel = channel
            entry.save(update_fields=["channel"])
            return entry.room.room
        if entry is None or entry.room_id or entry.lease_until < now:
            QuickEntry.objects.filter(player=player).delete()
            entry = QuickEntry(player=player, joined_at=now)
        entry.rating, entry.channel = race_rating(player=player), channel
        entry.lease_until = now + LEASE
        entry.save()
        return None


def quick_requeue(*, player, channel: str) -> None:
    """Queue again the player of a socket whose entry expired while its process could not
    renew it (the database away for longer than LEASE), unless another socket of theirs
    holds their place now."""
    if not QuickEntry.objects.filter(player=player).exists():
        quick_enqueue(player=player, channel=channel)


def quick_leave(*, player, channel: str) -> None:
    """The socket on `channel` closed before a match: its player leaves the queue (unless a
    newer socket holds their place)."""
    QuickEntry.objects.filter(player=player, channel=channel, room__isnull=True).delete()


def quick_round(*, channels: list[str]) -> QuickRound:
    """One round of a process's queue: renew its sockets' leases, drop the entries whose
    lease ran out, match whoever can be matched; then what its sockets are to be told."""
    now = timezone.now()
    held = QuickEntry.objects.filter(channel__in=channels, room__isnull=True)
    held.update(lease_until=now + LEASE)
    QuickEntry.objects.filter(room__isnull=True, lease_until__lt=now).delete()
    rooms = quick_match(now=now)
    return QuickRound(
        waiting=quick_waiting(now=now).count(),
        entries=quick_entries_of(channels=channels),
        rooms=[race_snapshot(room=room) for room in rooms],
    )


def quick_match(*, now: datetime) -> list[RaceRoom]:
    """Match the waiting entries this round can lock: into rooms counting down, or into new
    rooms. The rooms it changed; a group another round took first is left to the next."""
    with transaction.atomic():
        entries = {e.pk: e for e in quick_waiting(now=now).select_for_update(skip_locked=True)}
        if not entries:
            return []
        waiters = [Waiter(pk, e.rating, quick_waited_s(e, now)) for pk, e in entries.items()]
        openings = quick_openings(now=now, margin=quick_span(JOIN_MARGIN))
        seats = [Opening(pk, rated, MAX_RACERS - len(rated)) for pk, rated in openings.items()]
        matches = quick_matches(waiters, seats)
        changed = {}
        for key, room_id in matches.joins:
            changed |= _claimed([entries[key]], room_id, now)
        for keys in matches.groups:
            changed |= _claimed([entries[key] for key in keys], None, now)
        return list(changed.values())


def _claimed(entries: list[QuickEntry], room_id: int | None, now: datetime) -> dict:
    """Put the entries in the room (a new one if `room_id` is None), by id: all of them or,
    if another round was first, none."""
    try:
        with transaction.atomic():
            room = RaceRoom.objects.get(pk=room_id) if room_id else _quick_room(entries[0].player)
            pks = [entry.pk for entry in entries]
            unclaimed = QuickEntry.objects.filter(pk__in=pks, room__isnull=True)
            if unclaimed.filter(lease_until__gte=now).update(room=room) != len(entries):
                raise _Taken
            for entry in entries:
                room = race_enter_quick(player=entry.player, room=room)
                send_on_commit(entry.channel, {"type": "quick.matched", "room": room.room})
            return {room.pk: room}
    except (_Taken, RaceError):  # a room that filled or began meanwhile is one too
        return {}


def _quick_room(creator) -> RaceRoom:
    return room_open(code=code_fresh_winnable(), fresh=True, creator=creator, quick=True)


def race_enter_quick(*, player, room: RaceRoom) -> RaceRoom:
    """Put the player in a quick room, which starts by itself with no Ready: a countdown of
    QUICK_COUNTDOWN once two racers are in, cut to COUNTDOWN when the eighth comes in. A
    racer already in stays in. RaceError once the race began, ended, or is full."""
    now = timezone.now()
    with transaction.atomic():
        room = RaceRoom.objects.select_for_update().get(pk=room.pk)
        if room.entries.filter(player=player).exists():
            return room
        _check_enterable(room, now)
        RaceEntry.objects.create(room=room, player=player, joined_at=now)
        spectator_opened_deal(player_id=player.pk, code=room.code)
        _count_down(room, room.entries.count(), now)
        room_bump(room)
        return room


def _check_enterable(room: RaceRoom, now: datetime) -> None:
    if room.status not in (Status.LOBBY, Status.RUNNING):
        raise RaceError("race_over")
    if room.starts_at is not None and room.starts_at <= now:
        raise RaceError("race_started")
    if room.entries.count() >= MAX_RACERS:
        raise RaceError("room_full")


def _count_down(room: RaceRoom, racers: int, now: datetime) -> None:
    if racers >= MIN_RACERS and room.starts_at is None:
        room.status, room.starts_at = Status.RUNNING, now + quick_span(QUICK_COUNTDOWN)
    if racers >= MAX_RACERS:
        room.starts_at = min(room.starts_at, now + quick_span(COUNTDOWN))
