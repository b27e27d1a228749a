"""Abandoned games: open and not moved for a day; the label ends nothing (docs/protocol.md,
"Abandoned games")."""

import datetime

import pytest
import time_machine

from game import services
from game.models import Game
from game.selectors.abandoned import ABANDONED_AFTER, with_abandoned

pytestmark = pytest.mark.django_db

CODE = "HH1-N-AAAAAAC"
NOON = datetime.datetime(2026, 3, 14, 12, tzinfo=datetime.UTC)


@pytest.fixture
def clock():
    with time_machine.travel(NOON, tick=False) as clock:
        yield clock


def abandoned(game: Game) -> bool:
    return bool(with_abandoned(Game.objects.filter(pk=game.pk)).get().abandoned)


def test_a_game_not_moved_for_a_day_is_abandoned_until_its_player_moves_again(clock, player):
    game = services.game_open(player=player, code=CODE)
    clock.shift(ABANDONED_AFTER - datetime.timedelta(seconds=1))
    assert not abandoned(game)  # its start counts as its last move
    services.game_tap(game=services.LockedGame(game.pk), player=player, seq=1, target="stock")
    clock.shift(ABANDONED_AFTER - datetime.timedelta(seconds=1))
    assert not abandoned(game)
    clock.shift(datetime.timedelta(seconds=1))
    assert abandoned(game)  # a day to the second since the draw
    assert services.game_open(player=player, code=CODE) == game  # the label ends nothing
    services.game_tap(game=services.LockedGame(game.pk), player=player, seq=2, target="stock")
    assert not abandoned(game) and Game.objects.get(pk=game.pk).status == "open"


def test_an_ended_game_or_a_ranked_one_awaiting_its_start_is_never_abandoned(clock, player):
    ended = services.game_open(player=player, code=CODE)
    services.game_resign(game=services.LockedGame(ended.pk), player=player)
    waiting = Game.objects.create(player=player, code="HH1-D-AAAAAAB", ranked=True)
    clock.shift(3 * ABANDONED_AFTER)
    assert not abandoned(ended) and not abandoned(waiting)
