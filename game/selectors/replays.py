"""Replays: a completed game step by step from its stored action log.

Step 0 is the deal as first shown; step n is the state after the log's first n actions, the
same state `engine.replay(code, actions[:n])` gives. Only public views leave the server, so a
replay reveals the stock exactly as the game drew it, never its order ahead.
"""

from datetime import datetime

from django.conf import settings

from game import engine
from game.domain.errors import WatchError
from game.models import Game

CHUNK = 100  # steps a request returns


def replay_steps(*, game: Game, start: int = 0, count: int = CHUNK) -> dict:
    """{"total", "start", "steps"}: up to `count` steps from `start`, each
    {"index", "action", "event", "at_ms", "view"} (step 0 has no action).

    Reads the log's actions before `start` (the state there is their replay) and only the
    chunk's own rows with their times, however long the log.
    """
    if game.status == Game.Status.OPEN:
        raise WatchError("not_finished")
    total = game.action_count + 1
    if start >= total:
        return {"total": total, "start": start, "steps": []}
    state = engine.new_game(game.code, key=settings.DEAL_KEY)
    for action in _actions_before(game, start - 1):
        state, _ = engine.step(state, action)
    steps = [_step(0, None, None, 0, state)] if start == 0 else []
    for index, action, at in _rows(game, first=max(start - 1, 0), end=start + count - 1):
        state, event = engine.step(state, action)
        steps.append(_step(index + 1, action, str(event), _ms(game.started_at, at), state))
    return {"total": total, "start": start, "steps": steps}


def _actions_before(game: Game, end: int) -> list[str]:
    if end <= 0:
        return []
    actions = game.actions.filter(index__lt=end).order_by("index")
    return list(actions.values_list("action", flat=True))


def _rows(game: Game, *, first: int, end: int) -> list[tuple]:
    """(index, action, at) of the log entries first..end-1."""
    rows = game.actions.filter(index__gte=first, index__lt=end).order_by("index")
    return list(rows.values_list("index", "action", "at"))


def _step(index: int, action, event, at_ms: int, state: engine.State) -> dict:
    view = engine.public_view(state)
    return {"index": index, "action": action, "event": event, "at_ms": at_ms, "view": view}


def _ms(started_at: datetime, at: datetime) -> int:
    return max(0, int((at - started_at).total_seconds() * 1000))
