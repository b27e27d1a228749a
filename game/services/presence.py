"""Presence: the open play sockets ("N playing now") and a game's spectators, counted in the
database so that every server process reads the same numbers.

Each row names the process that holds it. Play sockets, which open and close with every game,
are written in batches: the sockets that came and went since the last write go in one
transaction with the snapshot that follows it, so a burst of connects costs a few writes, not
one each, and a socket that closes before its row was written costs none. One heartbeat a
process refreshes all of its rows every HEARTBEAT_S; a row not refreshed for STALE_AFTER (its
process died) stops counting and is swept by the next heartbeat anywhere. A change is
published to the presence group (counts) or to the game's group (its watcher count) by the
socket that made it, so nothing lingers after the last socket closes; the counts are
published only while someone listens to them (a board page counts afresh when it opens).
"""

import asyncio
import functools
import uuid
from datetime import timedelta

from channels.layers import get_channel_layer
from django.db import IntegrityError, transaction
from django.db.models import Q, QuerySet
from django.urls import reverse
from django.utils import timezone

from game.daily import daily_today
from game.models import Game, Presence
from game.selectors.abandoned import abandoned_before, last_move_at
from game.selectors.watching import racing_game_ids
from game.services.audience import anyone_in_group, others_in_group
from game.services.groups import PRESENCE, game_group
from game.services.layer import ask_layer, on_layer
from game.services.publish import publish
from game.storage.db import db

HEARTBEAT_S = 20
STALE_AFTER = timedelta(seconds=60)
LISTED = 12  # players of today's deal named, with a watch link, on the daily board
PROCESS = uuid.uuid4().hex  # this server process


def presence_enter(*, channel: str, kind: str, user_id: int | None, game_id: int) -> None:
    """Count one socket until it leaves or its process stops beating."""
    defaults = {"process": PROCESS, "kind": kind, "user_id": user_id, "game_id": game_id}
    Presence.objects.update_or_create(channel=channel, defaults=defaults | _now())


def presence_apply(*, entered: list[dict], left: list[str]) -> None:
    """Store the play sockets that came and went, in one transaction. A socket whose game was
    deleted before its row was written (its account with it) is left out: kept, its row would
    fail this write and every later one."""
    try:
        _apply(entered, left)
    except IntegrityError:
        games = Game.objects.filter(pk__in={row["game_id"] for row in entered})
        alive = set(games.values_list("pk", flat=True))
        _apply([row for row in entered if row["game_id"] in alive], left)


def _apply(entered: list[dict], left: list[str]) -> None:
    with transaction.atomic():
        if left:
            Presence.objects.filter(channel__in=left).delete()
        if entered:
            rows = [Presence(**row) for row in entered]
            Presence.objects.bulk_create(rows, ignore_conflicts=True)  # a retried write


def presence_leave(*, channel: str) -> None:
    Presence.objects.filter(channel=channel).delete()


def presence_beat() -> int:
    """Refresh this process's rows; sweep rows nobody refreshed. Returns how many were swept."""
    Presence.objects.filter(process=PROCESS).update(**_now())
    stale = Presence.objects.filter(seen_at__lt=timezone.now() - STALE_AFTER)
    return stale.delete()[0]


def playing_now() -> int:
    """How many players have a board open."""
    return _playing().values("user_id").distinct().count()


def watchers_of(*, game_id: int) -> int:
    """How many spectators watch a game."""
    return _counted(Presence.Kind.WATCH).filter(game_id=game_id).count()


def presence_snapshot() -> dict:
    """{"playing", "daily_playing", "daily"}: everyone playing, and who plays today's deal."""
    today = _playing().filter(game__daily__date=daily_today())
    rows = today.order_by("game__started_at", "game_id")
    listed = list(rows.values_list("user__profile__display_name", "game_id").distinct()[:LISTED])
    racing = racing_game_ids(game_ids=[game for _, game in listed])
    daily = [
        {"player": name, "watch_url": reverse("watch", args=[game])}
        for name, game in listed
        if game not in racing  # nobody watches a race game while its race runs
    ]
    daily_playing = today.values("user_id").distinct().count()
    return {"playing": playing_now(), "daily_playing": daily_playing, "daily": daily}


def _counted(kind: str) -> QuerySet[Presence]:
    return Presence.objects.filter(kind=kind, seen_at__gte=timezone.now() - STALE_AFTER)


def _playing() -> QuerySet[Presence]:
    """The boards open on games that are not abandoned: a board left open a day on a game
    never moved since is not someone playing (game.selectors.abandoned)."""
    boards = _counted(Presence.Kind.PLAY).alias(
        last_moved=last_move_at(game="game_id", started_at="game__started_at")
    )
    moving = Q(last_moved__gt=abandoned_before()) | Q(last_moved__isnull=True)
    return boards.filter(moving)


def _now() -> dict:
    return {"seen_at": timezone.now()}


# The sockets' side. `_held` maps the channels this process counts to their spectated game.
_held: dict[str, int | None] = {}


async def play_opened(consumer) -> None:
    """A player's board socket opened: count it, and tell it how many watch its game."""
    channel, game_id, layer = consumer.channel_name, consumer.game_id, consumer.channel_layer
    row = {"kind": Presence.Kind.PLAY, "user_id": consumer.user.pk, "game_id": game_id}
    _play_rows.enter(channel, row)
    _hold(channel, None)
    await _presence_changed()
    # Spectators are in the game's group: with nobody else there, no count is needed. Asked
    # afresh, not through the game's remembered audience: a spectator may join a moment later,
    # and the game's first move must then be published to it.
    others = functools.partial(others_in_group, layer, consumer.group, channel)
    if not await ask_layer("publish", others, layer=layer, unanswered=False):
        return
    watchers = await db(watchers_of)(game_id=game_id)
    if watchers:
        message = {"type": "game.watchers", "count": watchers}
        await on_layer("publish", lambda: layer.send(channel, message), layer=layer)


async def watch_opened(consumer, *, game_id: int) -> None:
    """A spectator's socket opened: count it and tell the game's group the new number."""
    user_id = consumer.scope["user"].pk
    await db(presence_enter)(
        channel=consumer.channel_name, kind=Presence.Kind.WATCH, user_id=user_id, game_id=game_id
    )
    _hold(consumer.channel_name, game_id)
    await _watchers_changed(game_id)


async def socket_closed(consumer) -> None:
    """A counted socket closed (any other socket: nothing to do)."""
    channel = consumer.channel_name
    if channel not in _held:
        return
    watched = _held.pop(channel)
    if not _held:
        _heartbeat.stop()
    if watched is None:
        _play_rows.leave(channel)
        await _presence_changed()
    else:
        await db(presence_leave)(channel=channel)
        await _watchers_changed(watched)


async def listener_added(*, game_id: int) -> None:
    """Something new listens to a game (a race room): tell its sockets, which then count their
    audience afresh (game.services.audience), with the unchanged watcher count."""
    await _watchers_changed(game_id)


def _hold(channel: str, watched: int | None) -> None:
    _held[channel] = watched
    _heartbeat.start()


async def _watchers_changed(game_id: int) -> None:
    count = await db(watchers_of)(game_id=game_id)
    await publish(game_group(game_id=game_id), {"type": "game.watchers", "count": count})


class _PlayRows:
    """The play sockets opened and closed here since their rows were last written."""

    def __init__(self) -> None:
        self.entered: dict[str, dict] = {}
        self.left: list[str] = []

    def enter(self, channel: str, row: dict) -> None:
        self.entered[channel] = {"channel": channel, "process": PROCESS, **row}

    def leave(self, channel: str) -> None:
        if self.entered.pop(channel, None) is None:  # written already: delete it
            self.left.append(channel)

    def take(self) -> tuple[list[dict], list[str]]:
        entered, left = list(self.entered.values()), self.left
        self.entered, self.left = {}, []
        return entered, left

    def give_back(self, entered: list[dict], left: list[str]) -> None:
        """A write failed: keep its changes for the next one (a lost leave would count forever).
        A socket that closed while the write ran is no longer to be written at all."""
        closed_meanwhile = set(self.left)
        for row in entered:
            if row["channel"] in closed_meanwhile:
                self.left.remove(row["channel"])
            else:
                self.entered.setdefault(row["channel"], row)
        self.left.extend(left)


_play_rows = _PlayRows()


async def _send_presence() -> None:
    entered, left = _play_rows.take()
    seen = [row | _now() for row in entered]
    try:
        await db(presence_apply)(entered=seen, left=left)
    except BaseException:
        _play_rows.give_back(entered, left)
        raise
    # The snapshot (four queries) only for someone to hear it. Asked after the write: a board
    # that starts listening later reads the rows written by now in its own first snapshot.
    layer = get_channel_layer()
    heard = functools.partial(anyone_in_group, layer, PRESENCE)
    if layer is not None and await ask_layer("publish", heard, layer=layer, unanswered=False):
        snapshot = await db(presence_snapshot)()
        await publish(PRESENCE, {"type": "presence.update", **snapshot})


class _Coalesced:
    """Runs `send` for a change; changes made while it runs are sent once more, together.

    A burst of sockets opening costs a few publications, not one each, and no task outlives
    the socket that made the last change.
    """

    def __init__(self, send) -> None:
        self.send, self.loop, self.dirty = send, None, False

    async def __call__(self) -> None:
        loop = asyncio.get_running_loop()
        if self.loop is loop:
            self.dirty = True
            return
        self.loop = loop
        try:
            self.dirty = True
            while self.dirty:
                self.dirty = False
                await self.send()
        finally:
            self.loop = None


_presence_changed = _Coalesced(_send_presence)


class _Heartbeat:
    """One task per process that refreshes its rows while it holds any."""

    def __init__(self) -> None:
        self.task: asyncio.Task | None = None

    def start(self) -> None:
        loop = asyncio.get_running_loop()
        if self.task is None or self.task.done() or self.task.get_loop() is not loop:
            self.task = loop.create_task(self._run())

    def stop(self) -> None:
        if self.task is not None and not self.task.done():
            self.task.cancel()
        self.task = None

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(HEARTBEAT_S)
            if await db(presence_beat)():
                await _presence_changed()


_heartbeat = _Heartbeat()
