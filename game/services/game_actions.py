"""The play use cases, and the pages' and races' way to the database.

Start, tap, undo, resign and help each have one entry point, `game_<action>`, whichever way its
game reaches the database (play.Way): a socket's game kept in memory
(game.runtime.open_games.LiveGame), whose use cases are awaited, or a page's or a race's, locked
in the caller's transaction (`LockedGame`), whose use cases return at once. Either way the
action goes through the one sequence, play.played.

A locked game's action is one transaction (a savepoint in the caller's): lock the game's row,
read it and replay its log, then the sequence's steps; the game's listeners hear of it after
commit. The lock serialises the writers of this connection's kind; a socket's write made
meanwhile on a stale log matches no row (play.py).
"""

from collections.abc import AsyncIterator, Coroutine
from contextlib import asynccontextmanager
from typing import Any

from django.db import transaction

from game.domain.deal_codes import code_fresh
from game.domain.errors import GameError
from game.models import Game
from game.services import play
from game.services.play import Ran, Reply, StoredGame, Way, Write
from game.services.publish import game_publish


def game_start(*, game: Way[Ran], player, seq: int) -> Ran:
    """Start a ranked daily game's clock now and show its deal; a started game's state again."""
    return play.played(game, player, seq, play.Start())


def game_tap(*, game: Way[Ran], player, seq: int, target, selected=None) -> Ran:
    """Tap a target; a pair is stored as two actions (the selected target, then `target`).
    `selected` is the socket's selection, kept in its memory: a selection is never stored."""
    return play.played(game, player, seq, play.Tap(play.parsed_target(target), selected))


def game_undo(*, game: Way[Ran], player, seq: int) -> Ran:
    """Take back the last move; GameError("cannot_undo") if there is none."""
    return play.played(game, player, seq, play.Undo())


def game_resign(*, game: Way[Ran], player, seq: int | None = None) -> Ran:
    """End the game as resigned; its result is what the log shows now. A page's action has
    no seq (None): it is always new."""
    return play.played(game, player, seq, play.Resign())


def game_set_help(*, game: Way[Ran], player, seq: int, on, selected=None) -> Ran:
    """Turn placement help on or off; stored only when it changes the game's state."""
    return play.played(game, player, seq, play.SetHelp(play.help_setting(on), selected))


def game_new(*, player, ending_game_id: int | None = None) -> str:
    """A fresh random code; first ends the player's unfinished game `ending_game_id`, if any."""
    if ending_game_id is not None:
        try:
            game_resign(game=LockedGame(ending_game_id), player=player)
        except GameError as error:
            if error.code not in ("game_over", "day_over", "not_started"):
                raise  # an unstarted ranked game is left waiting: its clock never ran
    return code_fresh()


class LockedGame:
    """A game reached through its row, locked in the caller's transaction (play.Way)."""

    def __init__(self, game_id: int) -> None:
        self.id = game_id

    @asynccontextmanager
    async def turn(self) -> AsyncIterator[StoredGame]:
        """The game's row locked and read. A refusal stores nothing, so the transaction keeps
        what came before it: the ending of a game its day's end caught open (day_over)."""
        refused = None
        with transaction.atomic():
            try:
                yield _locked(self.id)
            except GameError as error:
                refused = error
        if refused is not None:
            raise refused

    async def close_day(self, game: StoredGame) -> None:
        game.adopt(play.day_closed(game))

    async def store(self, game: StoredGame, write: Write, seq: int | None) -> dict | None:
        return play.store(game, write, seq)  # the lock keeps the log as read: stored

    def lost(self) -> None:
        """Nothing to note: each turn reads the row again."""

    def run(self, sequence: Coroutine[Any, Any, Reply]) -> Reply:
        """The sequence run to its end at once (none of this way's steps waits), then
        published to the game's listeners once the caller's transaction commits."""
        reply = _completed(sequence)
        if reply.news is not None:
            snapshot = {"view": reply.news["view"], "game": reply.news["game"]}
            game_publish(game_id=self.id, event=reply.event, snapshot=snapshot, origin="")
        return reply


def _completed(sequence: Coroutine[Any, Any, Reply]) -> Reply:
    try:
        sequence.send(None)
    except StopIteration as done:
        return done.value
    sequence.close()
    raise RuntimeError("a page's play step waited for an event loop")


def _locked(game_id: int) -> StoredGame:
    # The lock serialises a player's pages: each action replays the log the previous one wrote.
    game = Game.objects.select_for_update().filter(pk=game_id).first()
    if game is None:
        raise GameError("not_your_game")
    return StoredGame.of(game)
