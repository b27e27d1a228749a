"""Spectating and replays: who may watch a game, and what a spectator is sent.

A spectator sees exactly the public view the player's own board shows (from the game's group),
never more. Three rules keep watching fair, because a game shows the stock order as it draws:
a race game is its player's alone until every racer has finished (rivals race the same deal);
today's daily deal can be watched only by players who have finished their ranked attempt of
it; and nobody watches a game of a deal they are playing themselves, or waiting to race.
Pages that link to games ask `racing_game_ids` so they never link to a refusal.
"""

from django.core.cache import caches
from django.utils import timezone

from game.domain.errors import WatchError
from game.models import Game, Profile, Result
from game.selectors.boards import board_version
from game.selectors.daily import daily_today
from game.selectors.games import game_snapshot
from game.selectors.races import entries_waiting, racing_game_ids

# What of the game object a spectator needs: the player's seq and settings stay private.
SPECTATOR_KEYS = (
    "id",
    "code",
    "kind",
    "ranked",
    "practice",
    "status",
    "started_at",
    "awaiting_start",
    "server_now",
    "paused_ms",
    "daily_date",
    "result",
)


def game_to_watch(*, viewer, game_id: int) -> Game:
    """The game if `viewer` may watch or replay it; else WatchError saying why not."""
    game = Game.objects.select_related("daily").filter(pk=game_id).first()
    if game is None:
        raise WatchError("no_such_game")
    refusal = watch_refusal(viewer=viewer, game=game)
    if refusal:
        raise WatchError(refusal)
    return game


def watch_refusal(*, viewer, game: Game) -> str | None:
    """Why `viewer` may not watch or replay `game` now ("race_running", "daily_locked",
    "playing_this_deal"), or None."""
    if viewer.is_authenticated and viewer.pk == game.player_id:
        return None
    if racing_game_ids(game_ids=[game.pk]):
        return "race_running"
    today = game.daily_id is not None and game.daily.date >= daily_today()
    if today and not _ranked_attempt_finished(viewer, game.daily_id):
        return "daily_locked"
    if viewer.is_authenticated and _playing(viewer, game.code):
        return "playing_this_deal"
    return None


def _ranked_attempt_finished(viewer, daily_id: int) -> bool:
    if not viewer.is_authenticated:
        return False
    return Result.objects.filter(player=viewer, daily_id=daily_id, ranked=True).exists()


def _playing(viewer, code: str) -> bool:
    if Game.objects.filter(player=viewer, code=code, status=Game.Status.OPEN).exists():
        return True
    return entries_waiting(player=viewer, code=code).exists()


def spectator_snapshot(*, game_id: int) -> dict:
    """{"view", "game", "player"}: the game as its player's board shows it now.

    Made once per process and version of the game (the "snapshots" cache), so spectators who
    connect or `sync` again cost one read of the game's row, not a replay of its log.
    """
    game = Game.objects.select_related("daily").get(pk=game_id)
    cache, key = caches["snapshots"], _snapshot_key(game)
    snapshot = cache.get(key)
    if snapshot is None:
        snapshot = _spectator_snapshot(game)
        cache.set(key, snapshot)
    return snapshot | {"game": snapshot["game"] | {"server_now": timezone.now().isoformat()}}


def _snapshot_key(game: Game) -> str:
    """What a spectator's snapshot depends on: the log and the clock's start, and once the
    game is over its rank, which moves with its deal's board (every result of a code joins
    that board, a ranked daily's too)."""
    rank = 0 if game.status == Game.Status.OPEN else board_version(board=f"deal:{game.code}")
    started = game.started_at.isoformat() if game.started_at else None
    return f"spectator:{game.pk}:{game.action_count}:{game.status}:{started}:{rank}"


def _spectator_snapshot(game: Game) -> dict:
    snapshot = game_snapshot(game=game)
    return {
        "view": snapshot["view"],
        "game": spectator_game(snapshot["game"]),
        "player": player_name(game.player_id),
    }


def spectator_game(game: dict) -> dict:
    """The part of a game object a spectator may see: not the result's par, which would tell
    someone who has not played the deal yet how short a win of it is."""
    seen = {key: game[key] for key in SPECTATOR_KEYS if key in game}
    if seen.get("result"):
        seen["result"] = {key: value for key, value in seen["result"].items() if key != "par"}
    return seen


def player_name(user_id: int) -> str | None:
    names = Profile.objects.filter(user_id=user_id).values_list("display_name", flat=True)
    return names.first()
