"""Run inside `manage.py shell`: one player with `games` finished games of `moves` actions each,
written by bulk_create; prints the player's name and session key as JSON (bench.export and
tests/system/test_export.py)."""

import datetime
import json

from django.contrib.auth import get_user_model
from django.utils import timezone

from game import engine
from game.models import Action, Game, Profile, Result
from tests.harness.players import session_for

TARGETS = ["stock", "waste", "undo", *(str(card) for card in range(1, 26))]
GAMES_PER_WRITE = 20


def player_with_games(name: str, games: int, moves: int) -> dict:
    user = get_user_model().objects.create(username=name)
    Profile.objects.create(user=user, display_name=name)
    start = timezone.now() - datetime.timedelta(days=games)
    for first in range(0, games, GAMES_PER_WRITE):
        numbers = range(first, min(first + GAMES_PER_WRITE, games))
        _write_games(user, [start + datetime.timedelta(days=n) for n in numbers], moves)
    return {"name": name, "sessionid": session_for(user), "games": games, "moves": moves}


def _write_games(user, starts: list[datetime.datetime], moves: int) -> None:
    """Games started at `starts`, each won after `moves` actions a second apart."""
    made = Game.objects.bulk_create(
        Game(
            player=user,
            code=engine.format_code("N", 1000 + start.toordinal()),
            status=Game.Status.WON,
            started_at=start,
            finished_at=start + datetime.timedelta(seconds=moves),
            last_seq=moves,
            action_count=moves,
        )
        for start in starts
    )
    actions = [
        Action(game=game, index=i, action=TARGETS[i % len(TARGETS)], at=game.started_at)
        for game in made
        for i in range(moves)
    ]
    Action.objects.bulk_create(actions, batch_size=5000)
    Result.objects.bulk_create(_result(game, moves) for game in made)


def _result(game: Game, moves: int) -> Result:
    return Result(
        game=game,
        player=game.player,
        code=game.code,
        won=True,
        score=moves,
        moves=moves,
        undos=0,
        placement_help=False,
        duration_ms=moves * 1000,
        finished_at=game.finished_at,
    )


def main(accounts: list[tuple[str, int, int]]) -> None:
    """Each of `accounts` is (name, games, moves)."""
    print(json.dumps([player_with_games(*account) for account in accounts]))
