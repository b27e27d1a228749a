"""The race pages: a room opened, found by its code however it is typed, its table from lobby to
result, and a racer's page that links no race game while the race runs."""

import pytest
from django.conf import settings
from django.test import Client

from game import services
from game.models import Game, RaceRoom
from game.services import races
from tests.site import json_script, logged_in

pytestmark = pytest.mark.django_db

CODE = "HH1-N-AAAAAAC"


@pytest.fixture(autouse=True)
def english(settings):
    settings.LANGUAGE_CODE = "en"


def test_opening_a_race_room_leads_to_its_page(player):
    client = logged_in(player)
    response = client.post("/race/new/", {"code": "hh1-n-aaaaaac"})
    room = RaceRoom.objects.get()
    assert response.status_code == 302 and response.url == f"/race/{room.room}/"
    page = client.get(response.url).content.decode()
    snapshot = json_script(page, "race-room")
    assert snapshot["code"] == CODE and [e["name"] for e in snapshot["entries"]] == ["Ann"]
    assert json_script(page, "race-labels")["won"]
    assert f'data-ws-path="/ws/race/{room.room}/"' in page and "<script>" not in page


def test_a_room_code_is_found_however_it_is_typed(player):
    room = races.race_create(player=player)
    client = Client()
    assert client.get("/race/find/", {"room": room.room.lower()}).url == f"/race/{room.room}/"
    assert client.get(f"/race/{room.room.lower()}/").url == f"/race/{room.room}/"
    assert client.get("/race/find/", {"room": "??"}).status_code == 400
    assert client.get("/race/ZZZZZZ/").status_code == 404


@pytest.mark.parametrize("language", ["en", "ms"])
def test_the_race_pages_heading_is_the_games_name_in_both_languages(language):
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    assert "<h1>Heart to Heart</h1>" in client.get("/race/").content.decode()


def test_racing_needs_a_login_and_a_good_code(player):
    assert Client().post("/race/new/").status_code == 302  # to the login page
    response = logged_in(player).post("/race/new/", {"code": "HH9-N-AAAAAAA"})
    assert response.status_code == 200  # the form again, with why
    assert "A deal code looks like HH1-N-ABCDEFG" in response.content.decode()
    assert "Race this deal" in Client().get(f"/leaderboard/deal/{CODE}/").content.decode()


def test_a_finished_races_table_stays_at_its_link(player, rival):
    room = races.race_create(player=player)
    races.race_join(player=rival, room=room.room)
    for racer in (player, rival):
        races.race_ready(player=racer, room=room.room, ready=True)
    RaceRoom.objects.filter(pk=room.pk).update(starts_at=room.touched_at)
    races.race_begin_if_due(room=room.room)
    for racer in (rival, player):
        game = Game.objects.get(race_entry__room=room, player=racer)
        services.game_resign(game=services.LockedGame(game.pk), player=racer)
    page = Client().get(f"/race/{room.room}/").content.decode()
    snapshot = json_script(page, "race-room")
    assert snapshot["status"] == "finished"
    assert [e["state"] for e in snapshot["entries"]] == ["resigned", "resigned"]
    assert page.count("/replay/") >= 2


def test_a_racers_page_links_no_race_game_while_the_race_runs(player, rival):
    room = races.race_create(player=player, code=CODE)
    races.race_join(player=rival, room=room.room)
    for racer in (player, rival):
        races.race_ready(player=racer, room=room.room, ready=True)
    RaceRoom.objects.filter(pk=room.pk).update(starts_at=room.touched_at)
    races.race_begin_if_due(room=room.room)
    game = Game.objects.get(race_entry__room=room, player=rival)
    services.game_resign(game=services.LockedGame(game.pk), player=rival)  # out early; Ann races on
    page = Client().get("/players/Bea/").content.decode()
    assert f"/replay/{game.pk}/" not in page and f"/watch/{game.pk}/" not in page
    assert "racing" in page


def test_the_quick_race_page_queues_a_signed_in_player_over_its_socket(player):
    page = logged_in(player).get("/race/quick/").content.decode()
    assert 'data-ws-path="/ws/race/quick/"' in page
    assert json_script(page, "quick-labels")["waiting"] == "Looking for a rival… %(n)s waiting"
    assert Client().get("/race/quick/").url == "/accounts/login/?next=/race/quick/"


def test_the_home_page_offers_a_quick_race_beside_racing_a_friend():
    page = Client().get("/").content.decode()
    assert page.index("Race a friend") < page.index('href="/race/quick/"')


def test_a_quick_room_s_page_offers_no_invitation_and_says_it_starts_by_itself(player):
    room = races.room_open(code=CODE, fresh=False, creator=player, quick=True)
    page = logged_in(player).get(f"/race/{room.room}/").content.decode()
    assert json_script(page, "race-room")["quick"] is True
    assert 'id="race-link"' not in page and "starts by itself" in page
