"""The play page with a ghost (`/play/<CODE>/?ghost=<game id>`): its panel beside the board and
the socket that plays it back; a ghost it may not race refused with a page that says why."""

import pytest
from django.utils import timezone

from game import services
from game.models import DailyDeal, Game
from game.selectors import daily
from tests.selectors.history import finish
from tests.site import speaking

pytestmark = pytest.mark.django_db

CODE = "HH1-N-AAAAAAC"


def test_the_page_shows_the_ghost_beside_the_board_and_its_socket_plays_it(player, rival):
    ghost = finish(rival, code=CODE).game
    response = speaking("en", player).get(f"/play/{CODE}/?ghost={ghost.pk}")
    page = response.content.decode()
    assert response.status_code == 200 and "data-ghost" in page and "Ghost of Bea" in page
    assert f'data-ws-path="/ws/play/{CODE}/?ghost={ghost.pk}"' in page
    assert 'aria-live="polite"' in page


def test_the_page_speaks_malay_too(player, rival):
    ghost = finish(rival, code=CODE).game
    page = speaking("ms", player).get(f"/play/{CODE}/?ghost={ghost.pk}").content.decode()
    assert "Hantu Bea" in page and "Kad hati berbaki" in page


def test_a_page_without_a_ghost_has_no_panel(player):
    page = speaking("en", player).get(f"/play/{CODE}/").content.decode()
    assert "data-ghost" not in page and f'data-ws-path="/ws/play/{CODE}/"' in page


def test_a_typed_variant_of_the_code_keeps_its_ghost(player, rival):
    ghost = finish(rival, code=CODE).game
    response = speaking("en", player).get(f"/play/hh1-n-aaaaaac/?ghost={ghost.pk}")
    assert response.status_code == 302 and response.url == f"/play/{CODE}/?ghost={ghost.pk}"


@pytest.mark.parametrize("typed", ["nope", "123456", "1e3"])
def test_no_such_ghost_is_a_clear_404_and_opens_no_game(player, typed):
    response = speaking("en", player).get(f"/play/{CODE}/?ghost={typed}")
    assert response.status_code == 404 and "This ghost cannot be raced" in response.content.decode()
    assert not Game.objects.filter(player=player).exists()


def test_todays_ghost_before_the_ranked_game_is_refused_and_opens_no_ranked_game(player, rival):
    deal = DailyDeal.objects.create(date=daily.daily_today(), code="HH1-D-AAAAAAB")
    ghost = finish(rival, deal).game
    response = speaking("en", player).get(f"/play/{deal.code}/?ghost={ghost.pk}")
    assert response.status_code == 403
    assert "once you have finished your own ranked game" in response.content.decode()
    assert not Game.objects.filter(player=player).exists()


def test_todays_ghost_after_the_ranked_game_is_a_practice_game(player, rival):
    deal = DailyDeal.objects.create(date=daily.daily_today(), code="HH1-D-AAAAAAB")
    ghost = finish(rival, deal).game
    ranked = services.game_daily_open(player=player)
    services.game_start(game=services.LockedGame(ranked.pk), player=player, seq=1)
    services.game_resign(game=services.LockedGame(ranked.pk), player=player, seq=2)
    response = speaking("en", player).get(f"/play/{deal.code}/?ghost={ghost.pk}")
    assert response.status_code == 200
    game = Game.objects.filter(player=player, status=Game.Status.OPEN).get()
    assert not game.ranked and game.started_at <= timezone.now()
