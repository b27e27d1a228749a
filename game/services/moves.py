"""The pages' and races' way through the one play sequence (play.played), in the caller's thread.

Each action is one transaction: lock the game's row, read it and replay its log, then the
sequence's steps; the game's listeners hear of it after commit. The lock serialises the
writers of this connection's kind; a socket's write made meanwhile on a stale log matches no
row (play.py).
"""

from collections.abc import AsyncIterator, Coroutine
from contextlib import asynccontextmanager
from typing import Any

from django.db import transaction

from game.domain.deal_codes import code_fresh
from game.domain.errors import GameError
from game.models import Game
from game.services import play
from game.services.play import Reply, StoredGame, Write
from game.services.publish import game_publish


def game_start(*, player, game_id: int, seq: int, origin: str = "") -> Reply:
    """Start a ranked daily game's clock now and show its deal; a started game's state again."""
    return play.played(LockedGame(game_id, origin), player, seq, play.Start())


def game_tap(*, player, game_id: int, seq: int, target, selected=None, origin: str = "") -> Reply:
    """Tap a target; a pair is stored as two actions (the selected target, then `target`)."""
    action = play.Tap(play.parsed_target(target), selected)
    return play.played(LockedGame(game_id, origin), player, seq, action)


def game_undo(*, player, game_id: int, seq: int, origin: str = "") -> Reply:
    """Take back the last move; GameError("cannot_undo") if there is none."""
    return play.played(LockedGame(game_id, origin), player, seq, play.Undo())


def game_resign(*, player, game_id: int, seq: int | None = None, origin: str = "") -> Reply:
    """End the game as resigned; its result is what the log shows now."""
    return play.played(LockedGame(game_id, origin), player, seq, play.Resign())


def game_set_help(*, player, game_id: int, seq: int, on, selected=None, origin: str = "") -> Reply:
    """Turn placement help on or off; stored only when it changes the game's state."""
    action = play.SetHelp(play.help_setting(on), selected)
    return play.played(LockedGame(game_id, origin), player, seq, action)


def game_new(*, player, ending_game_id: int | None = None) -> str:
    """A fresh random code; first ends the player's unfinished game `ending_game_id`, if any."""
    if ending_game_id is not None:
        try:
            game_resign(player=player, game_id=ending_game_id)
        except GameError as error:
            if error.code not in ("game_over", "day_over", "not_started"):
                raise  # an unstarted ranked game is left waiting: its clock never ran
    return code_fresh()


class LockedGame:
    """A game reached through its row, locked in the caller's transaction (play.Way)."""

    def __init__(self, game_id: int, origin: str = "") -> None:
        self.id, self.origin = game_id, origin  # origin: see publish.game_publish

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
        """Never: the lock keeps other writers out until the transaction ends."""

    def run(self, sequence: Coroutine[Any, Any, Reply]) -> Reply:
        """The sequence run to its end at once (none of this way's steps waits), then
        published to the game's listeners once the caller's transaction commits."""
        reply = _completed(sequence)
        if reply.news is not None:
            snapshot = {"view": reply.news["view"], "game": reply.news["game"]}
            game_publish(game_id=self.id, event=reply.event, snapshot=snapshot, origin=self.origin)
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
