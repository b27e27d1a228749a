"""Replays: a completed game step by step from its stored action log.

Step 0 is the deal as first shown; step n is the state after the log's first n actions, the
same state `engine.replay(code, actions[:n])` gives. Only public views leave the server, so a
replay reveals the stock exactly as the game drew it, never its order ahead.
"""

from datetime import datetime

from django.conf import settings

from game import engine
from game.models import Game
from game.realtime.errors import RealtimeError

CHUNK = 100  # steps a request returns


def replay_steps(*, game: Game, start: int = 0, count: int = CHUNK) -> dict:
    """{"total", "start", "steps"}: up to `count` steps from `start`, each
    {"index", "action", "event", "at_ms", "view"} (step 0 has no action)."""
    if game.status == Game.Status.OPEN:
        raise RealtimeError("not_finished")
    log = list(game.actions.order_by("index").values_list("action", "at"))
    state = engine.new_game(game.code, key=settings.DEAL_KEY)
    steps = [_step(0, None, None, 0, state)] if start == 0 else []
    for index, (action, at) in enumerate(log[: start + count - 1], start=1):
        state, event = _apply(state, action)
        if index >= start:
            steps.append(_step(index, action, event, _ms(game.started_at, at), state))
    return {"total": len(log) + 1, "start": start, "steps": steps[:count]}


def _apply(state: engine.State, action: str) -> tuple[engine.State, str]:
    """One log entry, as replay applies it, with the event it made."""
    parsed = engine.parse_action(action)
    if parsed == "undo":
        return engine.undo(state), "undo"
    if parsed in ("help-on", "help-off"):
        return engine.set_placement_help(state, parsed == "help-on"), "settings"
    state, event = engine.tap(state, parsed)
    return state, str(event)


def _step(index: int, action, event, at_ms: int, state: engine.State) -> dict:
    view = engine.public_view(state)
    return {"index": index, "action": action, "event": event, "at_ms": at_ms, "view": view}


def _ms(started_at: datetime, at: datetime) -> int:
    return max(0, int((at - started_at).total_seconds() * 1000))
