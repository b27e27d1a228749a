"""Presence's counts: a board counts as playing while its game is not abandoned."""

import datetime

import pytest
import time_machine
from django.utils import timezone

from game import services
from game.models import Game
from game.selectors.abandoned import ABANDONED_AFTER
from game.selectors.presence import playing_now
from game.services.presence import presence_enter

pytestmark = pytest.mark.django_db(transaction=True)

CODE = "HH1-N-AAAAAAC"


def test_a_board_left_open_a_day_on_a_game_not_moved_since_is_not_playing_now(
    player, rival, make_player
):
    with time_machine.travel(timezone.now() - ABANDONED_AFTER, tick=False) as clock:
        left = services.game_open(player=player, code=CODE)
        moved = services.game_open(player=rival, code=CODE)
        clock.shift(datetime.timedelta(hours=1))
        services.game_tap(game=services.LockedGame(moved.pk), player=rival, seq=1, target="stock")
    waiting = Game.objects.create(player=make_player("cai"), code="HH1-D-AAAAAAB", ranked=True)
    for channel, game in (("left", left), ("moved", moved), ("waiting", waiting)):
        presence_enter(channel=channel, kind="play", user_id=game.player_id, game_id=game.pk)
    assert playing_now() == 2  # the rival's board, and one on the start screen
    services.game_tap(game=services.LockedGame(left.pk), player=player, seq=1, target="stock")
    assert playing_now() == 3  # back to it: playing again
