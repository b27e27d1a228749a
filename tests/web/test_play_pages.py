"""The board pages: /play/<CODE>/, /play/new/ and /daily/."""

import datetime
import json
import re

import pytest
from django.conf import settings
from django.test import Client

from game import engine, services
from game.models import Game, Result
from game.selectors import daily
from game.services import races
from tests.site import reveals_stock

pytestmark = pytest.mark.django_db

CODE = "HH1-N-AAAAAAC"


@pytest.fixture
def logged_in(client, player):
    client.force_login(player)
    return client


def page_data(response, name):
    found = re.search(rf'<script id="h2h-{name}" type="application/json">(.*?)</script>',
                      response.content.decode(), re.S)  # fmt: skip
    return json.loads(found.group(1))


def test_racing_needs_a_login(client):
    # A visitor plays any deal as a guest (tests/web/test_guests.py); races stay for accounts.
    response = client.post("/race/new/")
    assert response.status_code == 302 and response.url.startswith("/accounts/login/")
    assert not Game.objects.exists()


def test_the_board_page_renders_the_view_the_game_and_the_socket_path(logged_in, player):
    response = logged_in.get(f"/play/{CODE}/")
    assert response.status_code == 200
    view, game = page_data(response, "view"), page_data(response, "game")
    assert view["code"] == CODE and view["stock"] == 26 and len(view["heart"]) == 25
    assert game["id"] == Game.objects.get(player=player).pk and game["status"] == "open"
    assert response.context["ws_path"] == f"/ws/play/{CODE}/"
    assert f'data-ws-path="/ws/play/{CODE}/"' in response.content.decode()


def test_the_page_does_not_reveal_the_stock_order(logged_in):
    response = logged_in.get(f"/play/{CODE}/")
    assert not reveals_stock(response.content.decode(), CODE)
    # The same heart and waste over the stock in another order gives the very same view.
    deal = engine.deal_for_code(CODE, key=settings.DEAL_KEY)
    shuffled = deal[:25] + tuple(reversed(deal[25:51])) + deal[51:]
    assert shuffled != deal
    other = engine.public_view(engine.new_game(shuffled))
    assert page_data(response, "view") | {"code": None} == other | {"code": None}


def test_a_typed_variant_of_a_code_redirects_to_the_canonical_one(logged_in):
    response = logged_in.get("/play/hh1-n-aaaaaac/")
    assert response.status_code == 302 and response.url == f"/play/{CODE}/"


@pytest.mark.parametrize("code", ["HH2-N-AAAAAAA", "nonsense", "HH1-N-AAAA1AA"])
def test_a_malformed_code_gets_a_clear_400_page(logged_in, code, settings):
    settings.LANGUAGE_CODE = "en"
    response = logged_in.get(f"/play/{code}/")
    assert response.status_code == 400
    assert "A deal code looks like HH1-N-ABCDEFG" in response.content.decode()
    assert not Game.objects.exists()


def test_a_new_game_redirects_to_a_fresh_code(logged_in):
    response = logged_in.get("/play/new/")
    code = response.url.split("/")[2]
    assert response.status_code == 302 and engine.parse_code(code) == code
    assert logged_in.get("/play/new/").url != response.url
    assert not Game.objects.exists()


def test_a_new_game_over_an_unfinished_one_ends_it(logged_in, player):
    game_id = page_data(logged_in.get(f"/play/{CODE}/"), "game")["id"]
    response = logged_in.post("/play/new/", {"ending": game_id})
    assert response.status_code == 302 and response.url != f"/play/{CODE}/"
    assert Game.objects.get(pk=game_id).status == "resigned"
    assert Result.objects.get(game_id=game_id).won is False


def test_a_new_game_cannot_end_another_players_game(logged_in, rival):
    theirs = Client()
    theirs.force_login(rival)
    game_id = page_data(theirs.get(f"/play/{CODE}/"), "game")["id"]
    response = logged_in.post("/play/new/", {"ending": game_id})
    assert response.status_code == 403
    assert Game.objects.get(pk=game_id).status == "open"


def test_a_malformed_ending_is_a_400(logged_in):
    assert logged_in.post("/play/new/", {"ending": "x1"}).status_code == 400


def test_the_daily_page_is_todays_deal_for_everyone(logged_in, rival, monkeypatch):
    monkeypatch.setattr(daily, "daily_today", lambda: datetime.date(2026, 5, 1))
    mine = page_data(logged_in.get("/daily/"), "game")
    other = Client()
    other.force_login(rival)
    theirs = page_data(other.get("/daily/"), "game")
    assert mine["code"] == theirs["code"] and mine["kind"] == "D"
    assert mine["ranked"] and theirs["ranked"] and mine["daily_date"] == "2026-05-01"


def test_the_ranked_daily_page_shows_no_card_and_a_start_naming_the_day(
    logged_in, player, monkeypatch
):
    monkeypatch.setattr(daily, "daily_today", lambda: datetime.date(2026, 5, 1))
    for language, start, date in (("ms", ">Mula<", "1 Mei 2026"), ("en", ">Start<", "May 1, 2026")):
        logged_in.cookies[settings.LANGUAGE_COOKIE_NAME] = language
        response = logged_in.get("/daily/")
        view, game = page_data(response, "view"), page_data(response, "game")
        assert view["heart"] is None and view["waste"]["top"] is None and view["hints"] == []
        assert game["awaiting_start"] and game["started_at"] is None
        content = response.content.decode()
        assert not reveals_stock(content, game["code"])
        start_screen = re.search(r'<div class="h2h-start" data-start>(.*?)</div>', content, re.S)
        assert date in start_screen.group(1) and start in start_screen.group(1)
    assert Game.objects.get(player=player).started_at is None


def test_a_page_after_midnight_ends_the_days_game_and_opens_practice(
    before_midnight, logged_in, player
):
    ranked = page_data(logged_in.get("/daily/"), "game")
    services.game_start(game=services.LockedGame(ranked["id"]), player=player, seq=1)
    before_midnight.move_to(before_midnight.midnight)
    game = page_data(logged_in.get(f"/play/{ranked['code']}/"), "game")
    assert game["id"] != ranked["id"] and game["practice"] and not game["awaiting_start"]
    assert Result.objects.get(game_id=ranked["id"]).ranked
    assert Game.objects.get(pk=ranked["id"]).status == "resigned"


def test_a_racer_waiting_in_a_lobby_is_told_the_deal_opens_at_the_start(logged_in, player, rival):
    room = races.race_create(player=rival, code=CODE)
    races.race_join(player=player, room=room.room)
    response = logged_in.get(f"/play/{CODE}/", headers={"accept-language": "en"})
    assert response.status_code == 403 and "waiting to race this deal" in response.content.decode()
    assert not Game.objects.filter(code=CODE).exists()


def test_the_days_standing_is_on_no_page_of_an_open_game(logged_in, player):
    ranked = page_data(logged_in.get("/daily/"), "game")
    services.game_start(game=services.LockedGame(ranked["id"]), player=player, seq=1)
    started = logged_in.get("/daily/")
    assert page_data(started, "game")["result"] is None
    assert "percentile" not in started.content.decode()
    reply = services.game_resign(game=services.LockedGame(ranked["id"]), player=player, seq=2)
    assert reply.game["result"]["daily"]["cleared"] == 0  # the end is where it comes
    practice = logged_in.get(f"/play/{ranked['code']}/")  # practice: open, no result
    assert page_data(practice, "game")["practice"] and page_data(practice, "game")["result"] is None


def finished_ranked_daily(client, player) -> dict:
    """The player's ranked game of today's deal, started and resigned: its game object."""
    ranked = page_data(client.get("/daily/"), "game")
    services.game_start(game=services.LockedGame(ranked["id"]), player=player, seq=1)
    services.game_tap(game=services.LockedGame(ranked["id"]), player=player, seq=2, target="stock")
    return services.game_resign(game=services.LockedGame(ranked["id"]), player=player, seq=3).game


def test_back_on_the_daily_after_the_ranked_game_its_result_shows_and_no_clock_starts(
    logged_in, player
):
    ranked = finished_ranked_daily(logged_in, player)
    response = logged_in.get("/daily/", headers={"accept-language": "en"})
    assert response.status_code == 200
    game, view = page_data(response, "game"), page_data(response, "view")
    assert game["id"] == ranked["id"] and game["ranked"] and game["status"] == "resigned"
    assert view["moves"] == 1 and len(view["heart"]) == 25  # the heart as it was left
    assert view["hints"] == []  # over: nothing to hint at
    result = game["result"]
    assert (result["rank"], result["of"], result["board"]) == (1, 1, "daily")
    assert result["par"] == ranked["result"]["par"] and result["duration_ms"] >= 0
    day = result["daily"]
    assert day["streak"] == {"current": 0, "best": 0} and day["cleared"] == 0
    assert day["distribution"]["bars"][-1]["count"] == 1 and day["next_deal_at"]
    assert Game.objects.filter(player=player).count() == 1  # nothing new, no clock running
    content = response.content.decode()
    assert "data-ws-path" not in content and response.context["ws_path"] is None
    practice = f'href="/play/{game["code"]}/">Play it again as practice</a>'
    assert f'<a class="button primary" {practice}' in content
    assert 'data-action="show-result"' in content


def test_play_it_again_opens_practice_and_the_daily_still_shows_the_ranked_result(
    logged_in, player
):
    ranked = finished_ranked_daily(logged_in, player)
    practice = page_data(logged_in.get(f"/play/{ranked['code']}/"), "game")
    assert practice["id"] != ranked["id"] and practice["practice"] and practice["started_at"]
    assert page_data(logged_in.get("/daily/"), "game")["id"] == ranked["id"]
    assert page_data(logged_in.get(f"/play/{ranked['code']}/"), "game")["id"] == practice["id"]
    assert Game.objects.filter(player=player).count() == 2


def test_the_daily_result_page_speaks_malay(logged_in, player):
    finished_ranked_daily(logged_in, player)
    logged_in.cookies[settings.LANGUAGE_COOKIE_NAME] = "ms"
    content = logged_in.get("/daily/").content.decode()
    assert "Main semula sebagai latihan" in content and "Keputusan anda" in content
