"""A game as its player's board shows it: the snapshot a page renders and a socket sends, and the
day a ranked game is ranked on, which ends at midnight."""

from datetime import date

from django.utils import timezone

from game import engine
from game.models import Game
from game.selectors import daily
from game.selectors.log import game_replay
from game.selectors.outages import outage_ms
from game.selectors.results import result_summary


def game_snapshot(*, game: Game, state: engine.State | None = None, standing: bool = True) -> dict:
    """{"view", "game"}: what the play page renders and a socket receives on connect
    (`standing`: see game.selectors.results.result_summary)."""
    if state is None:
        state = game_replay(game=game)
    view = engine.public_view(state)
    if game_awaiting_start(game=game):
        view = view_unseen(view)
    return {"view": view, "game": _game_info(game=game, state=state, standing=standing)}


def game_awaiting_start(*, game: Game) -> bool:
    """A ranked daily game whose player has not pressed Start: no card of it is shown yet."""
    return game.started_at is None and game.status == Game.Status.OPEN


def view_unseen(view: dict) -> dict:
    """A view before the start: the code and the piles' sizes, but no card and no hint."""
    waste = {"top": None, "size": view["waste"]["size"]}
    return view | {"heart": None, "waste": waste, "hints": [], "deadlocked": False}


def _game_info(*, game: Game, state: engine.State, standing: bool) -> dict:
    return {
        "id": game.pk,
        "code": game.code,
        "kind": game.code.split("-")[1],
        "ranked": game.ranked,
        "practice": game.daily_id is not None and not game.ranked,
        "status": game.status,
        "started_at": game.started_at and game.started_at.isoformat(),
        "awaiting_start": game_awaiting_start(game=game),
        "server_now": timezone.now().isoformat(),
        "paused_ms": game_paused_ms(game=game),
        "last_seq": game.last_seq,
        "daily_date": game.daily.date.isoformat() if game.daily_id else None,
        "placement_help": state.placement_help,
        # An open game has no result: skip the query (every socket connect pays it).
        "result": None
        if game.status == Game.Status.OPEN
        else result_summary(game=game, standing=standing),
    }


def game_paused_ms(*, game: Game) -> int:
    """The outages inside a game so far, which its clock leaves out (game.selectors.outages)."""
    if game.started_at is None:
        return 0
    return outage_ms(start=game.started_at, end=game.finished_at or timezone.now())


def game_day(*, game: Game) -> date | None:
    """The day a ranked game is ranked on; None for other games (their day never ends)."""
    return game.daily.date if game.ranked else None


def game_day_over(*, game: Game) -> bool:
    """A ranked game that its day's end caught unfinished: no action applies to it any more."""
    day = game_day(game=game)
    if day is None or daily.daily_today() <= day:
        return False
    return game.finished_at is None or game.finished_at >= daily.daily_day_end(day)
