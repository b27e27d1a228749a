"""A finished race's page: its racers' finish window, in both languages, and the link to the
rematch once someone raced again, while the room keeps its own table."""

import pytest
from django.conf import settings

from game.services import rematches
from tests.services.test_rematches import finished_race
from tests.site import json_script, logged_in

pytestmark = pytest.mark.django_db


def test_a_finished_room_holds_the_finish_window_and_links_its_rematch(player, rival):
    old = finished_race(player, rival)
    client = logged_in(player)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    page = client.get(f"/race/{old.room}/").content.decode()
    assert 'id="race-finish"' in page and 'aria-labelledby="race-finish-title"' in page
    assert "data-race-rematch hidden" in page
    rematch = rematches.race_again(player=rival, room=old.room)
    page = client.get(f"/race/{old.room}/").content.decode()
    assert f'href="/race/{rematch.room}/">Rematch: {rematch.room}</a>' in page
    snapshot = json_script(page, "race-room")
    assert snapshot["status"] == "finished" and snapshot["rematch"]["room"] == rematch.room
    assert [e["state"] for e in snapshot["entries"]] == ["resigned", "resigned"]


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", ["Race again", "See the table", "Place", "You won the race!"]),
        ("ms", ["Berlumba lagi", "Lihat jadual", "Tempat", "Anda memenangi perlumbaan!"]),
    ],
)
def test_the_finish_window_speaks_the_players_language(player, rival, language, words):
    old = finished_race(player, rival)
    client = logged_in(player)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    page = client.get(f"/race/{old.room}/").content.decode()
    labels = json_script(page, "race-labels")
    assert all(word in page for word in words[:3])
    assert labels["finish_won"] == words[3]


def test_a_rated_race_shows_each_racers_rating_change_in_its_table(player, rival):
    old = finished_race(player, rival)
    client = logged_in(rival)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    page = client.get(f"/race/{old.room}/").content.decode()
    changes = [e["rating_change"] for e in json_script(page, "race-room")["entries"]]
    assert None not in changes
    assert sorted(changes) == [-242, 242]  # a newcomer's win against a newcomer
    for change in ("+242", "\u2212242"):  # a fall with the minus sign, not a hyphen
        assert f'title="Race rating change">{change}</small>' in page
