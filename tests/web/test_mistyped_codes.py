"""A mistyped deal code is told what a code looks like, in the player's language, wherever it
is typed: a board's address and a deal leaderboard's (400 pages, as the protocol says), and the
home page's and the race page's forms (the form again, at 200: no error in the console)."""

import pytest

from game.models import Game, RaceRoom
from tests.site import speaking

pytestmark = pytest.mark.django_db

TOLD = {
    "en": "A deal code looks like HH1-N-ABCDEFG: HH1, then N or D, then seven letters.",
    "ms": "Kod agihan kelihatan seperti HH1-N-ABCDEFG: HH1, kemudian N atau D, kemudian tujuh"
    " huruf.",
}
MISTYPED = ["HH1-N-BAD", "HH2-N-AAAAAAA", "HH1-X-AAAAAAA", "hello"]
# What the engine's parser says, in English whatever the player's language: never shown.
PARSER_WORDS = ["the seed must be", "unknown deal", "starts with HH"]


@pytest.fixture(params=sorted(TOLD))
def language(request):
    return request.param


def told(response, language: str) -> str:
    page = response.content.decode()
    assert TOLD[language] in page
    assert not any(words in page for words in PARSER_WORDS)
    return page


@pytest.mark.parametrize("typed", MISTYPED)
def test_a_mistyped_board_address_is_a_400_page_saying_what_a_code_looks_like(
    player, language, typed
):
    response = speaking(language, player).get(f"/play/{typed}/")
    assert response.status_code == 400
    told(response, language)
    assert not Game.objects.exists()


def test_a_visitor_is_told_the_same(language):
    response = speaking(language).get("/play/HH1-N-BAD/")
    assert response.status_code == 400
    told(response, language)


@pytest.mark.parametrize("typed", MISTYPED)
def test_a_mistyped_deal_leaderboard_address_is_a_400_page_saying_so(language, typed):
    response = speaking(language).get(f"/leaderboard/deal/{typed}/")
    assert response.status_code == 400
    told(response, language)


@pytest.mark.parametrize("to", ["play", "leaderboard"])
@pytest.mark.parametrize("typed", MISTYPED)
def test_the_home_forms_mistyped_code_is_told_under_its_field_at_200(language, typed, to):
    response = speaking(language).get("/deal/", {"code": typed, "to": to})
    assert response.status_code == 200
    page = told(response, language)
    assert 'aria-invalid="true"' in page and f'value="{typed}"' in page


def test_the_race_forms_mistyped_code_is_told_above_the_form_at_200(player, language):
    client = speaking(language, player)
    response = client.post("/race/new/", {"code": "HH1-N-BAD"})
    assert response.status_code == 200
    page = told(response, language)
    assert 'value="HH1-N-BAD"' in page
    assert not RaceRoom.objects.exists()
