"""Your data on the pages: /accounts/export/ (one JSON file) and /accounts/delete/ (a GET to
confirm, a POST with the password to delete), both linked from the profile page."""

import datetime
import json

import pytest
import time_machine
from asgiref.sync import async_to_sync
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from game import services
from game.models import Follow, Game, Result
from game.selectors import exports
from game.services.follows import follow_create
from tests.site import resign_now

pytestmark = pytest.mark.django_db

CODE = "HH1-N-AAAAAAC"


@pytest.fixture(autouse=True)
def english(settings):
    settings.LANGUAGE_CODE = "en"


def logged_in(user, **options) -> Client:
    client = Client(**options)
    client.force_login(user)
    return client


def downloaded(response) -> str:
    """A streamed response's whole body, read as the ASGI server reads it (asynchronously)."""
    assert response.streaming

    async def read() -> bytes:
        return b"".join([part async for part in response.streaming_content])

    return async_to_sync(read)().decode()


def exported(client) -> dict:
    response = client.get("/accounts/export/")
    assert response.status_code == 200
    return json.loads(downloaded(response))


def test_the_pages_keep_their_paths_and_names():
    assert reverse("data_export") == "/accounts/export/"
    assert reverse("account_delete") == "/accounts/delete/"


def test_the_profile_page_links_to_both(player):
    html = logged_in(player).get("/accounts/profile/").content.decode()
    assert 'href="/accounts/export/"' in html and 'href="/accounts/delete/"' in html


def test_the_export_is_one_json_file_of_the_profile_games_logs_results_and_follows(player, rival):
    game_id = resign_now(player, CODE)
    open_game = services.game_open(player=player, code="HH1-N-AAAAAAD")
    services.game_tap(game=services.LockedGame(open_game.pk), player=player, seq=1, target="stock")
    follow_create(follower=player, followed=rival)
    follow_create(follower=rival, followed=player)
    response = logged_in(player).get("/accounts/export/")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/json")
    assert response["Content-Disposition"].startswith("attachment; filename=")
    assert response["Cache-Control"] == "no-store"
    data = json.loads(downloaded(response))
    assert data["account"]["username"] == "ann"
    assert data["profile"] == {"display_name": "Ann", "theme": "system"}
    games = {game["id"]: game for game in data["games"]}
    assert set(games) == {game_id, open_game.pk}
    finished = games[game_id]
    assert finished["code"] == CODE and finished["status"] == "resigned"
    assert finished["result"] | {"won": False, "score": 0} == finished["result"]
    assert finished["result"]["duration_ms"] >= 0
    assert games[open_game.pk]["result"] is None
    assert [a["action"] for a in games[open_game.pk]["actions"]] == ["stock"]
    assert [f["player"] for f in data["following"]] == ["Bea"]
    assert data["followers"] == 1
    assert "password" not in json.dumps(data)


GAME_KEYS = {"id", "code", "daily_date", "ranked", "race_room", "status", "started_at",
             "finished_at", "actions", "result"}  # fmt: skip
RESULT_KEYS = {"won", "score", "moves", "undos", "placement_help", "duration_ms", "clean",
               "finished_at"}  # fmt: skip


def test_an_export_read_in_parts_is_the_documented_document_oldest_game_first(player, monkeypatch):
    monkeypatch.setattr(exports, "GAMES_PER_READ", 2)  # five games: three reads
    codes = [f"HH1-N-AAAAAA{letter}" for letter in "CDEFG"]
    for code in codes[:4]:
        resign_now(player, code)
    services.game_open(player=player, code=codes[4])
    text = downloaded(logged_in(player).get("/accounts/export/"))
    data = json.loads(text)
    # Exactly as one json.dumps of the whole document writes it, as before it was streamed.
    assert text == json.dumps(data, ensure_ascii=False, indent=2)
    assert list(data) == ["format", "version", "exported_at", "account", "profile", "games",
                          "following", "followers", "ratings", "rating_history"]  # fmt: skip
    assert (data["format"], data["version"]) == ("heart-to-heart-account", 1)
    assert set(data["account"]) == {"username", "email", "date_joined", "last_login"}
    assert [game["code"] for game in data["games"]] == codes
    assert all(set(game) == GAME_KEYS for game in data["games"])
    assert all(set(game["result"]) == RESULT_KEYS for game in data["games"][:4])
    assert data["games"][4]["result"] is None


def test_the_export_has_only_the_players_own_games(player, rival):
    resign_now(rival, CODE)
    text = downloaded(logged_in(player).get("/accounts/export/"))
    data = json.loads(text)
    assert data["games"] == [] and data["following"] == []
    assert text == json.dumps(data, ensure_ascii=False, indent=2)


def test_a_sixth_export_within_the_hour_is_refused_in_the_players_language(player, rival, settings):
    client = logged_in(player)
    for _ in range(5):
        exported(client)
    refused = client.get("/accounts/export/")
    assert refused.status_code == 429
    assert "Your data can be downloaded 5 times an hour. Try again later." in (
        refused.content.decode()
    )
    settings.LANGUAGE_CODE = "ms"
    malay = client.get("/accounts/export/")
    assert malay.status_code == 429
    assert "Data anda boleh dimuat turun 5 kali sejam." in malay.content.decode()
    assert exported(logged_in(rival))["account"]["username"] == "bea"  # the limit is per account
    with time_machine.travel(datetime.timedelta(hours=1, seconds=1)):
        assert exported(client)["account"]["username"] == "ann"


def test_the_export_and_the_delete_page_need_a_login():
    for path in ("/accounts/export/", "/accounts/delete/"):
        response = Client().get(path)
        assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")


def test_the_delete_page_asks_for_the_password_and_deletes_nothing(player):
    response = logged_in(player).get("/accounts/delete/")
    assert response.status_code == 200
    html = response.content.decode()
    assert 'name="password"' in html and 'action="/accounts/delete/"' in html
    assert get_user_model().objects.filter(pk=player.pk).exists()


def test_a_wrong_password_is_refused_and_nothing_is_lost(player, rival):
    resign_now(player, CODE)
    follow_create(follower=player, followed=rival)
    client = logged_in(player)
    response = client.post("/accounts/delete/", {"password": "not-it"})
    assert response.status_code == 400
    assert b"That is not your password." in response.content
    missing = client.post("/accounts/delete/", {})
    assert missing.status_code == 400
    assert get_user_model().objects.filter(pk=player.pk).exists()
    assert Result.objects.filter(player=player).count() == 1 and Follow.objects.count() == 1
    assert client.get("/accounts/profile/").status_code == 200  # still logged in


def test_the_right_password_deletes_the_account_and_logs_out(player, rival):
    player_id = player.pk
    resign_now(player, CODE)
    other_device = logged_in(player)
    client = logged_in(player)
    response = client.post("/accounts/delete/", {"password": "ann-pw-4213"}, follow=True)
    assert response.redirect_chain[-1][0] == "/"
    assert b"Your account and everything of it are deleted." in response.content
    assert not get_user_model().objects.filter(pk=player_id).exists()
    assert not Game.objects.filter(player_id=player_id).exists()
    for browser in (client, other_device):
        assert browser.get("/accounts/profile/").status_code == 302  # logged out everywhere
    assert Client().get("/players/Ann/").status_code == 404


def test_deleting_needs_a_post_with_its_csrf_token(player):
    client = logged_in(player, enforce_csrf_checks=True)
    assert client.post("/accounts/delete/", {"password": "ann-pw-4213"}).status_code == 403
    assert logged_in(player).put("/accounts/delete/").status_code == 405
    assert get_user_model().objects.filter(pk=player.pk).exists()


def test_the_delete_page_speaks_malay(player, settings):
    settings.LANGUAGE_CODE = "ms"
    html = logged_in(player).get("/accounts/delete/").content.decode()
    assert "Padam akaun saya" in html and "Kata laluan anda" in html
