"""What the pages say of a review's decision: the player's page of a voided result, and the
board of a voided day, in English and Malay."""

import datetime

import pytest

from game.services.reviews import day_void, result_void
from tests.selectors.history import TODAY, deal_on, december_the_tenth, finish  # noqa: F401

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("december_the_tenth")]


@pytest.fixture
def voided(player, admin_user):
    """Ann's ranked result of today, voided on review, and her standing one of yesterday."""
    finish(player, deal_on(TODAY - datetime.timedelta(days=1)))
    result = finish(player, deal_on(TODAY), seconds=75)
    result_void(result=result, reason="a solver's line at machine pace", by=admin_user)
    return result


def test_the_players_page_says_a_result_was_voided_on_review(client, voided):
    content = client.get("/players/Ann/").content.decode()
    assert "A result was voided on review" in content
    assert content.count("data-voided") == 2  # the note, and the voided game's row
    assert "machine pace" not in content  # the reason is for reviewers
    assert "1:15" in content  # still in her recent games


def test_the_players_page_says_it_in_malay(client, voided):
    client.cookies["django_language"] = "ms"
    content = client.get("/players/Ann/").content.decode()
    assert "1 keputusan telah dibatalkan selepas semakan" in content
    assert ">dibatalkan selepas semakan</span>" in content


def test_a_page_of_a_player_with_nothing_voided_says_nothing_of_it(client, player):
    finish(player, deal_on(TODAY))
    assert "data-voided" not in client.get("/players/Ann/").content.decode()


def test_a_voided_days_board_says_why_it_is_empty(client, player, admin_user):
    deal = deal_on(TODAY)
    finish(player, deal)
    day_void(deal=deal, reason="a dead deal", by=admin_user)
    content = client.get(f"/leaderboard/daily/{TODAY.isoformat()}/").content.decode()
    assert "This day's deal was voided on review" in content and "/players/Ann/" not in content
    client.cookies["django_language"] = "ms"
    content = client.get(f"/leaderboard/daily/{TODAY.isoformat()}/").content.decode()
    assert "Agihan hari tersebut telah dibatalkan selepas semakan" in content
    # Her own page keeps the game, marked.
    assert ">dibatalkan selepas semakan</span>" in client.get("/players/Ann/").content.decode()
