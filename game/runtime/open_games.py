"""The open games: each open game's state kept in the process that serves its sockets.

A socket's connect replays the stored log once; after that a tap that stores nothing (a
selection, a deselection, a mismatch, a covered card) is answered from memory with no query
and no thread hop, and a move is one conditional write in the next group commit
(dbthread.append). The stored log stays the only truth: a write made on a stale state
(another process, or a page, moved the game meanwhile) matches no row, and the game is
reloaded from its log and the frame checked and applied again, so two tabs on two
processes still leave one valid log.

The play socket awaits the use cases (services.game_tap, …) on its LiveGame: a LiveGame is the
sockets' way (play.Way) through the one play sequence (play.played), keeping the game in memory
and reaching the database from the event loop.
"""

import asyncio
from collections.abc import Coroutine
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field
from typing import Any

from channels.layers import get_channel_layer

from game.domain.errors import GameError
from game.models import Game
from game.runtime.audience import Audience, others_listen
from game.services import play
from game.services.games import game_resume
from game.services.groups import game_group
from game.services.play import PROCESS, Reply, StoredGame, Write
from game.services.rooms import race_lobby_check
from game.storage.channel_layer import on_layer
from game.storage.dbthread import append, on_db_thread
from game.storage.failures import UNAVAILABLE


@dataclass(eq=False)
class LiveGame(StoredGame):
    """One game as this process knows it, shared by the sockets that show it."""

    sockets: set = field(default_factory=set)  # this process's channels showing it
    stale: bool = False  # another writer may have moved it: reload before the next action
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    audience: Audience = field(default_factory=Audience)  # who else hears its publications

    def turn(self) -> AbstractAsyncContextManager["LiveGame"]:
        """The game under its lock, read from its log again first if another writer may have
        moved it."""
        return _Turn(self)

    async def close_day(self, game: StoredGame) -> None:
        self.adopt(await _close_day(game))

    async def store(self, game: StoredGame, write: Write, seq: int | None) -> dict | None:
        """A plain move goes in the next group commit; a start or a last move (with its result)
        is a transaction of its own on a database thread."""
        if write.start or write.status:
            return await _store(game, write, seq)
        return {} if await append(play.append_of(game, write, seq)) else None

    def lost(self) -> None:
        self.stale = True

    async def run(self, sequence: Coroutine[Any, Any, Reply]) -> Reply:
        """The sequence's reply; GameError("storage_unavailable") if the database cannot take
        the action now. Whether a failed write was stored is then the log's to say, so the
        game is read from it again before its next action."""
        try:
            return await sequence
        except UNAVAILABLE as error:
            self.stale = True
            raise GameError("storage_unavailable") from error


class _Turn:
    """LiveGame.turn, written out as a class: it is entered on every tap, and one made by
    contextlib.asynccontextmanager costs about 3 µs more each time (a selection's whole answer
    takes about 7 µs in process)."""

    def __init__(self, live: LiveGame) -> None:
        self.live = live

    async def __aenter__(self) -> LiveGame:
        await self.live.lock.acquire()
        try:
            await _fresh(self.live)
        except BaseException:
            self.live.lock.release()
            raise
        return self.live

    async def __aexit__(self, *exception) -> None:
        self.live.lock.release()


_store = on_db_thread(play.store)
_close_day = on_db_thread(play.day_closed)
_games: dict[int, LiveGame] = {}


async def live_open(*, player, code: str, channel: str) -> LiveGame:
    """The player's latest game of `code` (game_resume), shared by this process's sockets;
    RaceError("race_lobby") while they wait in a race of it (rooms.race_lobby_check)."""
    loaded = await _load(player=player, code=code)
    live = _games.setdefault(loaded.id, loaded)
    live.sockets.add(channel)
    live.audience.forget()
    if live is not loaded:  # moved by another process or a page, perhaps: the log says now
        async with live.lock:
            if not _ahead(live, of=loaded):  # nothing stored here since the log was read
                live.adopt(loaded)
    return live


def live_close(live: LiveGame, *, channel: str) -> None:
    """A socket stopped showing the game; the last one out drops it from memory."""
    live.sockets.discard(channel)
    live.audience.forget()
    if not live.sockets and _games.get(live.id) is live:
        del _games[live.id]


def live_heard(live: LiveGame, message: dict) -> bool:
    """A publication about the game arrived: note it, and say whether it is news to show.

    One from elsewhere (another process, or a page's service) means the state here may be
    stale; one that is older than what this process stored since is not shown.
    """
    if message.get("process") != PROCESS:
        live.stale = True
        live.audience.forget()  # its sender listens too
    return message.get("count", live.count) >= live.count


async def live_publish(live: LiveGame, reply: Reply, *, origin: str) -> None:
    """Tell the game's other listeners (other tabs, spectators) about a stored action.

    Called after the acting socket has its reply; skipped when nobody else listens (audience).
    Best effort: while the channel layer is down it is dropped at once (game.storage.channel_layer).
    """
    layer = get_channel_layer()
    if layer is not None and reply.news:
        await on_layer("publish", lambda: _tell_others(live, layer, reply, origin), layer=layer)


async def _tell_others(live: LiveGame, layer, reply: Reply, origin: str) -> None:
    group = game_group(game_id=live.id)
    if await others_listen(live.audience, layer, group, origin):
        await layer.group_send(group, {"type": "game.state", "origin": origin, **reply.news})


async def live_reload(live: LiveGame) -> None:
    """Read the game from its log again: its publications may have been lost (the channel
    layer was down) while another tab or process moved it."""
    async with live.lock:
        live.stale = True
        live.audience.forget()
        await _fresh(live)


def live_par_heard(live: LiveGame, *, par: int) -> None:
    """The finished game's par was computed: later sockets on it are shown it too."""
    result = live.info.get("result")
    if result is not None:
        live.info = live.info | {"result": result | {"par": par}}


def live_audience_changed(live: LiveGame) -> None:
    """Someone may have started or stopped listening to the game (a spectator, a tab)."""
    live.audience.forget()


async def _fresh(live: LiveGame) -> None:
    if live.stale:
        live.stale = False
        try:
            live.adopt(await _load(game_id=live.id))
        except BaseException:
            live.stale = True
            raise


def _ahead(game: LiveGame, *, of: LiveGame) -> bool:
    """Whether `game` has got further than `of` in any way: actions, seq, or its end."""

    def progress(each: LiveGame) -> tuple:
        return each.count, each.last_seq, each.status != Game.Status.OPEN

    return any(a > b for a, b in zip(progress(game), progress(of), strict=True))


@on_db_thread
def _load(*, player=None, code: str | None = None, game_id: int | None = None) -> LiveGame:
    """A socket's game of `code` as its connect shows it, or game `game_id` reloaded after
    another writer moved it: then only to act on, so a ranked daily's standing is left out
    (a reload that finds the game ended comes just after the one that showed its end)."""
    if code is not None:
        race_lobby_check(player=player, code=code)  # in the same hop: one fewer per connect
        return LiveGame.of(game_resume(player=player, code=code))
    game = Game.objects.select_related("daily").get(pk=game_id)
    return LiveGame.of(game, standing=False)
