"""The one play sequence: start, tap, undo, resign and help, each checked, decided and stored alike.

`played` runs an action on a game through the same steps, whichever way the game reaches the
database (a `Way`): the end of its day first (a ranked game still open at its day's end is
ended now, games.game_day_closed), then `check` (whose game, a new seq, its day not over, open,
started: in that order), then `decide`, the one decision (the engine's answer, and what it
stores: nothing, or a `Write`), then the write, a conditional append (`append_of`) with the
result or the start in the same transaction (`store`), then `applied` (the game now, the reply,
and the news for its other listeners). A write made on a stale log matches no row and stores
nothing: the game is read again and the action decided again.

The use cases (game_actions.py: game_start, game_tap, game_undo, game_resign, game_set_help)
each run their action through `played`. The sockets' way keeps the game in memory
(game.runtime.open_games.LiveGame): its plain moves go in the next group commit on a database
thread. The pages' and races' way locks the game's row in the caller's transaction
(game_actions.LockedGame).
"""

import uuid
from collections.abc import Coroutine
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any, NamedTuple, Protocol, TypeVar

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from game import engine
from game.domain.errors import GameError
from game.models import Game, Result
from game.selectors import daily
from game.selectors.games import game_day, game_day_over, game_snapshot, view_unseen
from game.selectors.log import game_replay
from game.selectors.results import result_described
from game.services.attempts import attempt_mark
from game.services.games import game_day_closed
from game.services.results import result_create
from game.storage.appends import Append, appends_write

PROCESS = uuid.uuid4().hex  # tells this process's publications from other processes'
Target = int | str  # a position 1-25, "stock" or "waste"


class Start(NamedTuple):
    """Start a ranked daily game's clock now and show its deal."""


class Tap(NamedTuple):
    """Tap a parsed target, with the socket's in-memory selection."""

    target: Target
    selected: Target | None = None


class Undo(NamedTuple):
    """Take back the last move."""


class Resign(NamedTuple):
    """End the game as resigned."""


class SetHelp(NamedTuple):
    """Turn placement help on or off, with the socket's in-memory selection."""

    on: bool
    selected: Target | None = None


class Reply(NamedTuple):
    """What an action did: the state (with the socket's selection), the event, the game's
    snapshot info when something was stored (else None), and the news to publish to the
    game's other listeners once the actor has its reply."""

    state: engine.State
    event: str
    game: dict | None
    news: dict | None = None

    @property
    def view(self) -> dict:
        """The public view of the state, as the acting socket shows it."""
        if self.news is not None and self.state.selected is None:
            return self.news["view"]  # the stored state's, made once for the publication
        return engine.public_view(self.state)


class Write(NamedTuple):
    """A decided action that changes the stored game, and what the actor is shown after it."""

    state: engine.State  # the game's state once stored
    event: str
    actions: tuple[str, ...] = ()  # appended to the log, in order
    status: str | None = None  # the game ends so: its result is written with the append
    start: bool = False  # the ranked clock starts now
    selected: Target | None = None  # put back on the reply's state, if still free


@dataclass(eq=False)
class StoredGame:
    """One game as its stored log and row say: the state, never with a selection."""

    id: int
    player_id: int
    info: dict  # the game object of the snapshot (docs/protocol.md)
    state: engine.State
    count: int  # actions in the stored log
    day: date | None = None  # a ranked game's day, which ends at midnight (games.game_day)
    day_over: bool = False  # its day ended before it did: every action is refused day_over

    @classmethod
    def of(cls, game: Game, *, standing: bool = True):
        """The game of this row, its log replayed (`standing`: see result_summary)."""
        state = game_replay(game=game)
        return cls(
            id=game.pk,
            player_id=game.player_id,
            info=game_snapshot(game=game, state=state, standing=standing)["game"],
            state=state,
            count=game.action_count,
            day=game_day(game=game),
            day_over=game_day_over(game=game),
        )

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

    def adopt(self, other: "StoredGame") -> None:
        self.info, self.state, self.count = other.info, other.state, other.count
        self.day_over = other.day_over


ATTEMPTS = 20  # each lost attempt means another writer stored a move first
Ran = TypeVar("Ran", covariant=True)  # what a way's `run` gives: a Reply, or one to await


class Way(Protocol[Ran]):
    """How `played` reaches a game's rows. Its steps are coroutines either way: the sockets'
    (open_games.LiveGame) wait on database threads, the pages' (game_actions.LockedGame) never
    wait, so
    that the one sequence serves both."""

    def turn(self) -> AbstractAsyncContextManager[StoredGame]:
        """The game as stored now, held until the turn ends: no other action of this way
        on it runs meanwhile."""

    async def close_day(self, game: StoredGame) -> None:
        """End `game` now, as its day's end does (games.game_day_closed)."""

    async def store(self, game: StoredGame, write: Write, seq: int | None) -> dict | None:
        """`write` stored: the info it changed, or None if another writer moved the game first."""

    def lost(self) -> None:
        """Another writer moved the game first: read it again on the next turn."""

    def run(self, sequence: Coroutine[Any, Any, Reply]) -> Ran:
        """The sequence, run as this way runs it: awaited by a socket, run to its end by a page."""


def played(game: Way[Ran], player, seq: int | None, action) -> Ran:
    """`action` on `game`, through the one sequence, the way `game` reaches the database."""
    return game.run(_sequence(game, player, seq, action))


async def _sequence(game: Way, player, seq: int | None, action) -> Reply:
    """The steps, in their order, on the game as stored; taken again after each lost race."""
    for _ in range(ATTEMPTS):
        async with game.turn() as now:
            if day_ended(now):
                await game.close_day(now)
            check(now, player, seq, action)
            decided = decide(now, action)
            if isinstance(decided, Reply):
                return decided
            changes = await game.store(now, decided, seq)
            if changes is not None:
                return applied(now, decided, seq, changes)
            game.lost()
    raise RuntimeError(f"gave up after {ATTEMPTS} lost races")


def day_ended(game: StoredGame) -> bool:
    """A ranked game still open after its day ended: its day's end is still to be made."""
    if game.day is None or game.status != Game.Status.OPEN:
        return False
    return daily.daily_today() > game.day


def day_closed(game: StoredGame) -> StoredGame:
    """`game` once its day's end has ended it (games.game_day_closed)."""
    row = Game.objects.select_related("daily").get(pk=game.id)
    return StoredGame.of(game_day_closed(game=row))


def parsed_target(target) -> Target:
    """A tap's target parsed, or GameError("bad_target")."""
    try:
        return engine.parse_target(target)
    except engine.ParseError as error:
        raise GameError("bad_target", str(error)) from error


def help_setting(on) -> bool:
    """placement_help's value, or GameError("bad_setting")."""
    if not isinstance(on, bool):
        raise GameError("bad_setting")
    return on


def check(game: StoredGame, player, seq: int | None, action) -> None:
    """Refuse an action the game does not take now (a seq of None is a page's: always new)."""
    if game.player_id != player.pk:
        raise GameError("not_your_game")
    if seq is not None and seq <= game.last_seq:
        raise GameError("duplicate_seq")
    if game.day_over:
        raise GameError("day_over")
    if game.status != Game.Status.OPEN:
        raise GameError("game_over")
    if game.awaiting_start and not isinstance(action, Start):
        raise GameError("not_started")


def decide(game: StoredGame, action) -> Reply | Write:
    """The engine's answer to `action`: the reply if it stores nothing, else what to store
    (and so what the game's other listeners hear: the written state and event)."""
    match action:
        case Start() if not game.awaiting_start:
            return Reply(game.state, "start", game.game())  # started already: shown again
        case Start():
            decided = Write(game.state, "start", start=True)
        case Tap(target, selected):
            decided = _tapped(game.state, target, selected)
        case Undo():
            decided = Write(_undone(game.state), "undo", ("undo",))
        case Resign():
            decided = Write(game.state, "resign", status=Game.Status.RESIGNED)
        case SetHelp(on, selected):
            decided = _helped(game.state, on, selected)
        case _:
            raise TypeError(f"not a play action: {action!r}")
    if isinstance(decided, Write):
        _check_room(game.count, decided)
    return decided


def _tapped(state: engine.State, target, selected) -> Reply | Write:
    """A pair is stored as two actions (the selected target, then `target`)."""
    before = _reselect(state, selected)
    after, event = engine.tap(before, target)
    if not event.is_move:
        return Reply(after, event, None)
    actions = (str(before.selected), str(target)) if event == engine.Event.PAIR else (str(target),)
    return Write(after, event, actions, status=Game.Status.WON if after.won else None)


def _undone(state: engine.State) -> engine.State:
    try:
        return engine.undo(state)
    except engine.RuleError as error:
        raise GameError("cannot_undo") from error


def _helped(state: engine.State, on: bool, selected) -> Reply | Write:
    """Stored only when it changes the game's state."""
    if state.placement_help == on:
        return Reply(_reselect(state, selected), "settings", None)
    action = "help-on" if on else "help-off"
    changed = engine.set_placement_help(state, on)
    return Write(changed, "settings", (action,), selected=selected)


def _reselect(state: engine.State, selected) -> engine.State:
    """Re-apply the socket's in-memory selection; dropped if that card is no longer free."""
    if selected is None or state.selected is not None:
        return state
    again, event = engine.tap(state, selected)
    return again if event == engine.Event.SELECTED else state


def _check_room(count: int, write: Write) -> None:
    """A move may not grow the log past ACTIONS_PER_GAME entries, so no game costs more than
    that to replay; undo (at most 100 deep) and resign stay open, so the game can still end."""
    growing = write.event not in ("undo", "resign")
    if growing and count + len(write.actions) > settings.ACTIONS_PER_GAME:
        raise GameError("too_many_moves")


def append_of(game: StoredGame, write: Write, seq: int | None) -> Append:
    """The write's append, made on the log as `game` knows it."""
    return Append(game.id, game.count, write.actions, seq)


def store(game: StoredGame, write: Write, seq: int | None) -> dict | None:
    """Store `write` in one transaction (nested in the caller's, if any): the game info it
    changed, or None if another writer moved the game first."""
    with transaction.atomic():
        info, finished = _write(game, write, seq)
    if finished is not None:
        # Read once committed, not under the boards' version rows the result locked: the
        # day's standing takes several queries, and every finisher of the day waits on them.
        info = {"status": write.status, "result": result_described(result=finished)}
    return info


def _write(game: StoredGame, write: Write, seq: int | None) -> tuple[dict | None, Result | None]:
    """(the game info changed, or None if another writer moved first; its result if it ended)."""
    at = timezone.now()
    if write.start:
        return _started(game, seq, at), None
    if not appends_write(appends=[append_of(game, write, seq)], at=at)[0]:
        return None, None
    if write.status is None:
        return {}, None
    row = Game.objects.select_related("daily").get(pk=game.id)
    return None, result_create(game=row, state=write.state, status=write.status, at=at)


def _started(game: StoredGame, seq: int | None, at: datetime) -> dict | None:
    """Start the ranked clock, and mark the player's address as having had the day's attempt."""
    unstarted = Game.objects.filter(pk=game.id, started_at=None, status=Game.Status.OPEN)
    if unstarted.update(started_at=at, last_seq=seq) != 1:
        return None
    player = get_user_model().objects.only("email").get(pk=game.player_id)
    attempt_mark(player=player, day=game.day)
    return {"started_at": at.isoformat(), "awaiting_start": False}


def applied(game: StoredGame, write: Write, seq: int | None, changes: dict) -> Reply:
    """`game` once `write` is stored (with the info `changes` it made), and the reply."""
    game.state, game.count = write.state, game.count + len(write.actions)
    game.info = {
        **game.info,
        **changes,
        "last_seq": seq or game.last_seq,
        "placement_help": write.state.placement_help,
    }
    info = game.game()
    news = {
        "process": PROCESS,
        "count": game.count,
        "event": str(write.event),
        "view": engine.public_view(write.state),
        "game": info,
    }
    return Reply(_reselect(write.state, write.selected), write.event, info, news)
