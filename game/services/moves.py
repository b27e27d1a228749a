"""The pages' and races' way through the one play path (play.py), in the caller's thread.

Each action is one transaction: lock the game's row, read it and replay its log, then
play.py's checks, decision and write; the game's listeners hear of it after commit. The lock
serialises the writers of this connection's kind; a socket's write made meanwhile on a stale
log matches no row (play.py). A ranked game its day's end caught open is ended first, in a
transaction of its own, so that the refusal (day_over) keeps the ending.
"""

from django.db import transaction

from game.models import Game
from game.services import play
from game.services.errors import GameError
from game.services.games import game_day_closed
from game.services.log import code_fresh
from game.services.play import Reply, StoredGame
from game.services.publish import game_publish


def game_start(*, player, game_id: int, seq: int, origin: str = "") -> Reply:
    """Start a ranked daily game's clock now and show its deal; a started game's state again."""
    return _played(player, game_id, seq, play.Start(), origin)


def game_tap(*, player, game_id: int, seq: int, target, selected=None, origin: str = "") -> Reply:
    """Tap a target; a pair is stored as two actions (the selected target, then `target`)."""
    return _played(player, game_id, seq, play.Tap(play.parsed_target(target), selected), origin)


def game_undo(*, player, game_id: int, seq: int, origin: str = "") -> Reply:
    """Take back the last move; GameError("cannot_undo") if there is none."""
    return _played(player, game_id, seq, play.Undo(), origin)


def game_resign(*, player, game_id: int, seq: int | None = None, origin: str = "") -> Reply:
    """End the game as resigned; its result is what the log shows now."""
    return _played(player, game_id, seq, play.Resign(), origin)


def game_set_help(*, player, game_id: int, seq: int, on, selected=None, origin: str = "") -> Reply:
    """Turn placement help on or off; stored only when it changes the game's state."""
    return _played(player, game_id, seq, play.SetHelp(play.help_setting(on), selected), origin)


def game_new(*, player, ending_game_id: int | None = None) -> str:
    """A fresh random code; first ends the player's unfinished game `ending_game_id`, if any."""
    if ending_game_id is not None:
        try:
            game_resign(player=player, game_id=ending_game_id)
        except GameError as error:
            if error.code not in ("game_over", "day_over", "not_started"):
                raise  # an unstarted ranked game is left waiting: its clock never ran
    return code_fresh()


def _played(player, game_id: int, seq: int | None, action, origin: str) -> Reply:
    """`action` on the game as stored, under its row lock; published once it commits."""
    _end_day(game_id)
    with transaction.atomic():
        game = _locked(game_id)
        play.check(game, player, seq, action)
        decided = play.decide(game, action)
        if isinstance(decided, Reply):
            return decided
        changes = play.store(game, decided, seq)  # the lock keeps the log as read: stored
        reply = play.applied(game, decided, seq, changes)
        snapshot = {"view": reply.news["view"], "game": reply.news["game"]}
        game_publish(game_id=game.id, event=reply.event, snapshot=snapshot, origin=origin)
        return reply


def _end_day(game_id: int) -> None:
    """A ranked game still open at its day's end is ended now (games.game_day_closed)."""
    game = Game.objects.filter(pk=game_id, ranked=True, status=Game.Status.OPEN).first()
    if game is not None:
        game_day_closed(game=game)


def _locked(game_id: int) -> StoredGame:
    # The lock serialises a player's pages: each action replays the log the previous one wrote.
    game = Game.objects.select_for_update().filter(pk=game_id).first()
    if game is None:
        raise GameError("not_your_game")
    return StoredGame.of(game)
