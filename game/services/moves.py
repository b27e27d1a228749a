"""Actions on an open game, each in one transaction: check, ask the engine, store, publish.

Lock the game, check it is the player's and open and the seq is new, replay the log, apply,
append the move(s), write the result on a win, and broadcast after commit. Selections live
in the socket's memory and write nothing. A ranked game its day's end caught open is ended
first, in a transaction of its own, so that the refusal (day_over) keeps the ending.
"""

from functools import wraps
from typing import NamedTuple

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from game import engine
from game.models import Game
from game.services.broadcast import game_publish
from game.services.errors import GameError
from game.services.games import (
    game_awaiting_start,
    game_day_closed,
    game_day_over,
    game_snapshot,
)
from game.services.log import game_log_append, game_replay
from game.services.results import result_create


class Reply(NamedTuple):
    """What an action did: the state (with the socket's selection), the event, the game's
    snapshot info when something was stored (else None), and for the live sockets the news
    to publish to the game's other listeners once the actor has its reply."""

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


def _day_closed_first(action):
    """`action`, after ending its game if the day's end caught it open (games.game_day_closed)."""

    @wraps(action)
    def closed_first(*, game_id: int, **arguments):
        game = Game.objects.filter(pk=game_id, ranked=True, status=Game.Status.OPEN).first()
        if game is not None:
            game_day_closed(game=game)
        return action(game_id=game_id, **arguments)

    return closed_first


@_day_closed_first
def game_start(*, player, game_id: int, seq: int, origin: str = "") -> Reply:
    """Start a ranked daily game's clock now and show its deal; a started game's state again."""
    with transaction.atomic():
        game, state = _game_for_action(player=player, game_id=game_id, seq=seq, starting=True)
        if not game_awaiting_start(game=game):
            return Reply(state, "start", game_snapshot(game=game, state=state)["game"])
        game.started_at, game.last_seq = timezone.now(), seq
        game.save(update_fields=["started_at", "last_seq"])
        return _published(game, state, "start", origin)


@_day_closed_first
def game_tap(*, player, game_id: int, seq: int, target, selected=None, origin: str = "") -> Reply:
    """Tap a target; a pair is stored as two actions (the selected target, then `target`)."""
    target = _target(target)
    with transaction.atomic():
        game, base = _game_for_action(player=player, game_id=game_id, seq=seq)
        before = _reselect(base, selected)
        state, event = engine.tap(before, target)
        if not event.is_move:
            return Reply(state, event, None)
        actions = [before.selected, target] if event == engine.Event.PAIR else [target]
        return _stored(game, state, event, actions, seq, origin)


@_day_closed_first
def game_undo(*, player, game_id: int, seq: int, origin: str = "") -> Reply:
    """Take back the last move; GameError("cannot_undo") if there is none."""
    with transaction.atomic():
        game, base = _game_for_action(player=player, game_id=game_id, seq=seq)
        try:
            state = engine.undo(base)
        except engine.RuleError as error:
            raise GameError("cannot_undo") from error
        return _stored(game, state, "undo", ["undo"], seq, origin)


@_day_closed_first
def game_resign(*, player, game_id: int, seq: int | None = None, origin: str = "") -> Reply:
    """End the game as resigned; its result is what the log shows now."""
    with transaction.atomic():
        game, state = _game_for_action(player=player, game_id=game_id, seq=seq)
        at = game_log_append(game=game, actions=[], seq=seq)
        result_create(game=game, state=state, status=Game.Status.RESIGNED, at=at)
        return _published(game, state, "resign", origin)


@_day_closed_first
def game_set_help(*, player, game_id: int, seq: int, on, selected=None, origin: str = "") -> Reply:
    """Turn placement help on or off; stored only when it changes the game's state."""
    if not isinstance(on, bool):
        raise GameError("bad_setting")
    with transaction.atomic():
        game, base = _game_for_action(player=player, game_id=game_id, seq=seq)
        if base.placement_help == on:
            return Reply(_reselect(base, selected), "settings", None)
        state = engine.set_placement_help(base, on)
        action = "help-on" if on else "help-off"
        reply = _stored(game, state, "settings", [action], seq, origin)
        return reply._replace(state=_reselect(state, selected))


def game_new(*, player, ending_game_id: int | None = None) -> str:
    """A fresh random code; first ends the player's unfinished game `ending_game_id`, if any."""
    if ending_game_id is not None:
        try:
            game_resign(player=player, game_id=ending_game_id)
        except GameError as error:
            if error.code not in ("game_over", "day_over", "not_started"):
                raise  # an unstarted ranked game is left waiting: its clock never ran
    return engine.random_code()


def _target(target):
    try:
        return engine.parse_target(target)
    except engine.ParseError as error:
        raise GameError("bad_target", str(error)) from error


def _game_for_action(
    *, player, game_id: int, seq: int | None, starting: bool = False
) -> tuple[Game, engine.State]:
    # The lock serialises a player's tabs: each action replays the log the previous one wrote.
    game = Game.objects.select_for_update().filter(pk=game_id).first()
    if game is None or game.player_id != player.pk:
        raise GameError("not_your_game")
    if seq is not None and seq <= game.last_seq:
        raise GameError("duplicate_seq")
    if game_day_over(game=game):
        raise GameError("day_over")
    if game.status != Game.Status.OPEN:
        raise GameError("game_over")
    if game_awaiting_start(game=game) and not starting:
        raise GameError("not_started")
    return game, game_replay(game=game)


def _reselect(state: engine.State, selected) -> engine.State:
    """Re-apply the socket's in-memory selection; dropped if that card is no longer free."""
    if selected is None or state.selected is not None:
        return state
    again, event = engine.tap(state, selected)
    return again if event == engine.Event.SELECTED else state


def _check_room(count: int, event, actions: list) -> None:
    """A move may not grow the log past ACTIONS_PER_GAME entries, so no game costs more than
    that to replay; undo (at most 100 deep) and resign stay open, so the game can still end."""
    if event not in ("undo", "resign") and count + len(actions) > settings.ACTIONS_PER_GAME:
        raise GameError("too_many_moves")


def _stored(game: Game, state, event, actions: list, seq: int, origin: str) -> Reply:
    _check_room(game.action_count, event, actions)
    at = game_log_append(game=game, actions=actions, seq=seq)
    if state.won:
        result_create(game=game, state=state, status=Game.Status.WON, at=at)
    return _published(game, state, event, origin)


def _published(game: Game, state, event, origin: str) -> Reply:
    snapshot = game_snapshot(game=game, state=state)
    game_publish(game_id=game.pk, event=event, snapshot=snapshot, origin=origin)
    return Reply(state, event, snapshot["game"])
