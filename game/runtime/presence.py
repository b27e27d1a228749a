"""Presence in this process's memory: the sockets it counts, the play rows not yet written, and
the one heartbeat that keeps its rows fresh (the rows: game.services.presence; the counts:
game.selectors.presence).

Play sockets, which open and close with every game, are written in batches: the sockets that
came and went since the last write go in one transaction with the snapshot that follows it, so
a burst of connects costs a few writes, not one each, and a socket that closes before its row
was written costs none. One heartbeat a process refreshes all of its rows every HEARTBEAT_S. A
change is published to the presence group (counts) or to the game's group (its watcher count)
by the socket that made it, so nothing lingers after the last socket closes; the counts are
published only while someone listens to them (a board page counts afresh when it opens).
"""

import asyncio
import functools

from channels.layers import get_channel_layer
from django.utils import timezone

from game.models import Presence
from game.runtime.audience import anyone_in_group, others_in_group
from game.selectors.presence import presence_snapshot, watchers_of
from game.services.groups import PRESENCE, game_group
from game.services.presence import (
    PROCESS,
    presence_apply,
    presence_beat,
    presence_enter,
    presence_leave,
)
from game.services.publish import publish
from game.storage.channel_layer import ask_layer, on_layer
from game.storage.db import db

HEARTBEAT_S = 20

# The channels this process counts, each mapped to the game it spectates (None: a play socket).
_held: dict[str, int | None] = {}


async def play_opened(*, channel: str, user_id: int, game_id: int) -> None:
    """A player's board socket opened on `channel`: count it, and tell it how many watch its
    game."""
    _play_rows.enter(channel, {"kind": Presence.Kind.PLAY, "user_id": user_id, "game_id": game_id})
    _hold(channel, None)
    await _presence_changed()
    # Spectators are in the game's group: with nobody else there, no count is needed. Asked
    # afresh, not through the game's remembered audience: a spectator may join a moment later,
    # and the game's first move must then be published to it.
    layer = get_channel_layer()
    others = functools.partial(others_in_group, layer, game_group(game_id=game_id), channel)
    if not await ask_layer("publish", others, layer=layer, unanswered=False):
        return
    watchers = await db(watchers_of)(game_id=game_id)
    if watchers:
        message = {"type": "game.watchers", "count": watchers}
        await on_layer("publish", lambda: layer.send(channel, message), layer=layer)


async def watch_opened(*, channel: str, user_id: int | None, game_id: int) -> None:
    """A spectator's socket opened on `channel`: count it and tell the game's group the new
    number."""
    await db(presence_enter)(
        channel=channel, kind=Presence.Kind.WATCH, user_id=user_id, game_id=game_id
    )
    _hold(channel, game_id)
    await _watchers_changed(game_id)


async def socket_closed(*, channel: str) -> None:
    """The socket on `channel` closed: if it was counted, it counts no more."""
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
    audience afresh (game.runtime.audience), with the unchanged watcher count."""
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
    seen = [row | {"seen_at": timezone.now()} for row in entered]
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
