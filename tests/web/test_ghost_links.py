"""Where "Race this ghost" is offered: a deal board's best game, and a player's best games on
their page, each only where the visitor may race it."""

import pytest

from game.models import DailyDeal
from game.selectors import daily
from tests.selectors.history import finish
from tests.site import speaking

pytestmark = pytest.mark.django_db

CODE = "HH1-N-AAAAAAC"


def test_a_deal_board_offers_its_best_game_as_a_ghost(player, rival):
    finish(player, code=CODE, seconds=120)
    best = finish(rival, code=CODE, seconds=50)
    page = speaking("en", player).get(f"/leaderboard/deal/{CODE}/").content.decode()
    assert f'href="/play/{CODE}/?ghost={best.game_id}"' in page and "Race this ghost" in page


def test_todays_deal_board_offers_no_ghost_before_the_visitors_ranked_game(player, rival):
    deal = DailyDeal.objects.create(date=daily.daily_today(), code="HH1-D-AAAAAAB")
    finish(rival, deal)
    page = speaking("en", player).get(f"/leaderboard/deal/{deal.code}/").content.decode()
    assert "data-ghost-link" not in page
    finish(player, deal)
    page = speaking("en", player).get(f"/leaderboard/deal/{deal.code}/").content.decode()
    assert "data-ghost-link" in page


def test_an_empty_deal_board_offers_no_ghost(player):
    page = speaking("en", player).get(f"/leaderboard/deal/{CODE}/").content.decode()
    assert "data-ghost-link" not in page


def test_a_players_page_offers_their_best_games_as_ghosts_in_both_languages(player, rival):
    best = finish(rival, code=CODE)
    page = speaking("en", player).get("/players/Bea/").content.decode()
    assert f'href="/play/{CODE}/?ghost={best.game_id}"' in page and "Best games" in page
    page = speaking("ms", player).get("/players/Bea/").content.decode()
    assert "Lawan hantu ini" in page and "Permainan terbaik" in page


def test_ones_own_page_offers_ones_own_best(player):
    own = finish(player, code=CODE)
    page = speaking("en", player).get("/players/Ann/").content.decode()
    assert f"?ghost={own.game_id}" in page


def test_a_player_without_finished_games_has_no_ghosts_to_offer(player, rival):
    page = speaking("en", player).get("/players/Bea/").content.decode()
    assert "data-ghosts" not in page
