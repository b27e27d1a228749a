"""A game's stored action log read back: its state now."""

import pytest
from django.conf import settings
from django.utils import timezone

from game import engine
from game.models import Action, Game
from game.selectors.log import game_replay

pytestmark = pytest.mark.django_db

CODE = "HH1-N-AAAAAAC"


def test_a_fresh_game_is_its_deal_as_dealt(player):
    game = Game.objects.create(player=player, code=CODE)
    assert game_replay(game=game) == engine.new_game(CODE, key=settings.DEAL_KEY)


def test_a_game_is_its_stored_actions_replayed_in_their_order(player):
    game = Game.objects.create(player=player, code=CODE, action_count=2)
    for index in (1, 0):  # stored out of order: the log's index orders them
        Action.objects.create(game=game, index=index, action="stock", at=timezone.now())
    state = game_replay(game=game)
    assert state == engine.replay(CODE, ["stock", "stock"], key=settings.DEAL_KEY)
    assert engine.public_view(state)["moves"] == 2
