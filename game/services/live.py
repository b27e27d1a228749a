"""Live games: each open game's state kept in the process that serves its sockets.

A socket's connect replays the stored log once; after that a tap that stores nothing (a
selection, a deselection, a mismatch, a covered card) is answered from memory with no query
and no thread hop, and a move is one conditional write in the next group commit
(dbthread.append). The stored log stays the only truth: a write made on a stale state
(another process, or a page, moved the game meanwhile) matches no row, and the game is
reloaded from its log and the frame checked and applied again, so two tabs on two
processes still leave one valid log.

These are the async twins of moves.py's use cases, with the same checks in the same order;
the sockets call these, pages and tests may call either.
"""

import asyncio
import uuid
from dataclasses import dataclass, field
from datetime import date, datetime

from channels.layers import get_channel_layer
from django.db import transaction
from django.utils import timezone

from game import daily, engine
from game.models import Game
from game.services.appends import Append, appends_write
from game.services.audience import Audience, others_listen
from game.services.broadcast import game_group
from game.services.dbthread import append, on_db_thread
from game.services.errors import GameError
from game.services.games import (
    game_day,
    game_day_closed,
    game_day_over,
    game_resume,
    game_snapshot,
    view_unseen,
)
from game.services.log import game_replay
from game.services.moves import Reply, _check_room, _reselect, _target
from game.services.results import result_create, result_summary

PROCESS = uuid.uuid4().hex  # tells this process's publications from other processes'
ATTEMPTS = 20  # each failed attempt means another writer stored a move first


@dataclass(eq=False)
class LiveGame:
    """One game as this process knows it: the stored log's state, never with a selection."""

    id: int
    player_id: int
    info: dict  # the game object of the snapshot (docs/protocol.md)
    state: engine.State
    count: int  # actions in the stored log
    sockets: set = field(default_factory=set)  # this process's channels showing it
    stale: bool = False  # another writer may have moved it: reload before the next action
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    audience: Audience = field(default_factory=Audience)  # who else hears its publications
    day: date | None = None  # a ranked game's day, which ends at midnight (games.game_day)
    day_over: bool = False  # its day ended before it did: every action is refused day_over

    @property
    def last_seq(self) -> int:
        return self.info["last_seq"]

    @property
    def status(self) -> str:
        return self.info["status"]

    @property
    def awaiting_start(self) -> bool:
        return self.info["awaiting_start"]

    def snapshot(self) -> dict:
        """{"view", "game"}, as a socket receives on connect."""
        view = engine.public_view(self.state)
        return {"view": view_unseen(view) if self.awaiting_start else view, "game": self.game()}

    def game(self) -> dict:
        """The game object, on the server clock now."""
        return self.info | {"server_now": timezone.now().isoformat()}

    def adopt(self, other: "LiveGame") -> None:
        self.info, self.state, self.count = other.info, other.state, other.count
        self.day_over = other.day_over


_games: dict[int, LiveGame] = {}


async def live_open(*, player, code: str, channel: str) -> LiveGame:
    """The player's latest game of `code` (game_resume), shared by this process's sockets."""
    loaded = await _load(player=player, code=code)
    live = _games.setdefault(loaded.id, loaded)
    live.sockets.add(channel)
    live.audience.forget()
    if live is not loaded and _newer(loaded, live):  # moved by another process or a page
        async with live.lock:
            live.stale = True
            await _fresh(live)
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


async def live_start(live: LiveGame, *, player, seq: int) -> Reply:
    """Start a ranked daily game's clock now and show its deal; a started game's state again."""

    async def attempt():
        if not live.awaiting_start:
            return Reply(live.state, "start", live.game())
        started_at = await _start(live.id, seq)
        if started_at is None:
            return None
        live.info = live.info | {
            "started_at": started_at.isoformat(),
            "awaiting_start": False,
            "last_seq": seq,
        }
        return _reply(live, live.state, "start")

    return await _applied(live, player, seq, attempt, starting=True)


async def live_tap(live: LiveGame, *, player, seq: int, target, selected=None) -> Reply:
    """Tap a target; a pair is stored as two actions (the selected target, then `target`)."""
    target = _target(target)

    async def attempt():
        before = _reselect(live.state, selected)
        state, event = engine.tap(before, target)
        if not event.is_move:
            return Reply(state, event, None)
        actions = [before.selected, target] if event == engine.Event.PAIR else [target]
        return await _stored(live, state, event, actions, seq)

    return await _applied(live, player, seq, attempt)


async def live_undo(live: LiveGame, *, player, seq: int) -> Reply:
    """Take back the last move; GameError("cannot_undo") if there is none."""

    async def attempt():
        try:
            state = engine.undo(live.state)
        except engine.RuleError as error:
            raise GameError("cannot_undo") from error
        return await _stored(live, state, "undo", ["undo"], seq)

    return await _applied(live, player, seq, attempt)


async def live_resign(live: LiveGame, *, player, seq: int) -> Reply:
    """End the game as resigned; its result is what the log shows now."""

    async def attempt():
        return await _stored(live, live.state, "resign", [], seq, Game.Status.RESIGNED)

    return await _applied(live, player, seq, attempt)


async def live_set_help(live: LiveGame, *, player, seq: int, on, selected=None) -> Reply:
    """Turn placement help on or off; stored only when it changes the game's state."""
    if not isinstance(on, bool):
        raise GameError("bad_setting")

    async def attempt():
        if live.state.placement_help == on:
            return Reply(_reselect(live.state, selected), "settings", None)
        state = engine.set_placement_help(live.state, on)
        reply = await _stored(live, state, "settings", ["help-on" if on else "help-off"], seq)
        return reply and reply._replace(state=_reselect(state, selected))

    return await _applied(live, player, seq, attempt)


async def live_publish(live: LiveGame, reply: Reply, *, origin: str) -> None:
    """Tell the game's other listeners (other tabs, spectators) about a stored action.

    Called after the acting socket has its reply; skipped when nobody else listens (audience).
    """
    layer, group = get_channel_layer(), game_group(game_id=live.id)
    if layer is None or not reply.news:
        return
    if await others_listen(live.audience, layer, group, origin):
        await layer.group_send(group, {"type": "game.state", "origin": origin, **reply.news})


def live_audience_changed(live: LiveGame) -> None:
    """Someone may have started or stopped listening to the game (a spectator, a tab)."""
    live.audience.forget()


async def _applied(live: LiveGame, player, seq: int | None, attempt, starting=False) -> Reply:
    """Run `attempt` on the up-to-date game under its lock, again after each lost race."""
    for _ in range(ATTEMPTS):
        async with live.lock:
            await _fresh(live)
            await _end_day(live)
            _check(live, player, seq)
            if live.awaiting_start and not starting:
                raise GameError("not_started")
            reply = await attempt()
            if reply is not None:
                return reply
            live.stale = True  # another writer stored first: reload and decide again
    raise RuntimeError(f"game {live.id}: gave up after {ATTEMPTS} lost races")


def _check(live: LiveGame, player, seq: int | None) -> None:
    if live.player_id != player.pk:
        raise GameError("not_your_game")
    if seq is not None and seq <= live.last_seq:
        raise GameError("duplicate_seq")
    if live.day_over:
        raise GameError("day_over")
    if live.status != Game.Status.OPEN:
        raise GameError("game_over")


async def _stored(live: LiveGame, state, event, actions: list, seq, status=None) -> Reply | None:
    """Store a move made on `live`; its reply, or None if another writer moved the game."""
    _check_room(live.count, event, actions)
    move = Append(live.id, live.count, tuple(str(action) for action in actions), seq)
    finishing = status or (Game.Status.WON if state.won else None)
    if finishing:
        result = await _finish(move, state, finishing)
        if result is None:
            return None
        live.info = live.info | {"status": finishing, "result": result}
    elif not await append(move):
        return None
    live.state, live.count = state, live.count + len(actions)
    live.info = live.info | {
        "last_seq": seq or live.last_seq,
        "placement_help": state.placement_help,
    }
    return _reply(live, state, event)


def _reply(live: LiveGame, state, event) -> Reply:
    """The reply to a stored action, with the news for the game's other listeners."""
    game = live.game()
    view = engine.public_view(state)
    news = {
        "process": PROCESS,
        "count": live.count,
        "event": str(event),
        "view": view,
        "game": game,
    }
    return Reply(state, event, game, news)


async def _end_day(live: LiveGame) -> None:
    """A ranked game still open at its day's end is ended now (games.game_day_closed)."""
    if live.day is not None and live.status == Game.Status.OPEN and daily.daily_today() > live.day:
        live.adopt(await _close_day(live.id))


async def _fresh(live: LiveGame) -> None:
    if live.stale:
        live.stale = False
        try:
            live.adopt(await _load(game_id=live.id))
        except BaseException:
            live.stale = True
            raise


def _newer(loaded: LiveGame, live: LiveGame) -> bool:
    def progress(game: LiveGame) -> tuple:
        return game.count, game.last_seq, game.status != Game.Status.OPEN

    return any(a > b for a, b in zip(progress(loaded), progress(live), strict=True))


@on_db_thread
def _load(*, player=None, code: str | None = None, game_id: int | None = None) -> LiveGame:
    if code is not None:
        game = game_resume(player=player, code=code)
    else:
        game = Game.objects.select_related("daily").get(pk=game_id)
    return _live(game)


@on_db_thread
def _close_day(game_id: int) -> LiveGame:
    game = Game.objects.select_related("daily").get(pk=game_id)
    return _live(game_day_closed(game=game))


def _live(game: Game) -> LiveGame:
    state = game_replay(game=game)
    info = game_snapshot(game=game, state=state)["game"]
    return LiveGame(
        id=game.pk,
        player_id=game.player_id,
        info=info,
        state=state,
        count=game.action_count,
        day=game_day(game=game),
        day_over=game_day_over(game=game),
    )


@on_db_thread
def _start(game_id: int, seq: int) -> datetime | None:
    """Store the start instant, now; None if another writer started the game first."""
    now = timezone.now()
    unstarted = Game.objects.filter(pk=game_id, started_at=None, status=Game.Status.OPEN)
    return now if unstarted.update(started_at=now, last_seq=seq) == 1 else None


@on_db_thread
def _finish(move: Append, state: engine.State, status: str) -> dict | None:
    """Store the final move and the result in one transaction; the result, or None if lost."""
    with transaction.atomic():
        at = timezone.now()
        if not appends_write(appends=[move], at=at)[0]:
            return None
        game = Game.objects.select_related("daily").get(pk=move.game_id)
        result_create(game=game, state=state, status=status, at=at)
        return result_summary(game=game)
