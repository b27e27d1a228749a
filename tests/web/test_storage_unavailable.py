"""A page whose write the database cannot take now says nothing was saved, with 503 and
Retry-After, in the visitor's language; the same request once it writes again goes through."""

import pytest

from game import services
from game.models import Game
from tests.faults import read_only_here

pytestmark = pytest.mark.django_db(transaction=True)

CODE = "HH1-N-AAAAAAC"


@pytest.mark.parametrize(
    ("language", "said"),
    [("en", "nothing was changed"), ("ms", "tiada apa-apa yang diubah")],
)
def test_ending_a_game_on_a_read_only_database_says_so_and_changes_nothing(
    client, player, settings, language, said
):
    client.force_login(player)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    game = services.game_open(player=player, code=CODE)
    with read_only_here():
        refused = client.post("/play/new/", {"ending": game.pk})
    assert (refused.status_code, refused["Retry-After"]) == (503, "5")
    assert said in refused.content.decode()
    assert Game.objects.get(pk=game.pk).status == Game.Status.OPEN
    assert client.post("/play/new/", {"ending": game.pk}).status_code == 302
    assert Game.objects.get(pk=game.pk).status == Game.Status.RESIGNED
