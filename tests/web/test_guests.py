"""Guest play: a visitor plays a normal deal without an account, in their browser session; the
games are refereed as an account's, on no board, and kept in the account made in that session."""

import datetime
import json
import re

import pytest
import time_machine
from django.contrib.auth import get_user_model
from django.contrib.sessions.models import Session
from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from game import services
from game.models import BoardVersion, DailyDeal, Game, Guest, Profile, Result
from game.selectors import daily, leaderboards
from game.services.guests import guests_expire
from tests.site import sign_up

pytestmark = pytest.mark.django_db

CODE = "HH1-N-AAAAAAC"


@pytest.fixture(autouse=True)
def english(settings):
    settings.LANGUAGE_CODE = "en"
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def page_data(response, name):
    found = re.search(rf'<script id="h2h-{name}" type="application/json">(.*?)</script>',
                      response.content.decode(), re.S)  # fmt: skip
    return json.loads(found.group(1))


def guest_of(client) -> Guest:
    return Guest.objects.select_related("user").get(session_key=client.session.session_key)


def test_a_guests_new_game_leads_to_a_playable_board(client):
    response = client.get("/play/new/")
    assert response.status_code == 302
    code = re.fullmatch(r"/play/(HH1-N-[A-Z0-9]+)/", response.url).group(1)
    board = client.get(response.url)
    assert board.status_code == 200
    content = board.content.decode()
    assert f'data-ws-path="/ws/play/{code}/"' in content
    assert "You play as a guest: this browser keeps your games for 14 days." in content
    game = page_data(board, "game")
    assert game["code"] == code and game["status"] == "open" and not game["ranked"]
    assert Game.objects.get(pk=game["id"]).player == guest_of(client).user


def test_a_guest_plays_any_normal_deal_by_its_code_and_comes_back_to_it(client):
    first = page_data(client.get(f"/play/{CODE}/"), "game")
    again = page_data(client.get(f"/play/{CODE}/"), "game")
    assert first["id"] == again["id"]
    assert Guest.objects.count() == 1 and get_user_model().objects.count() == 1


def test_two_browsers_are_two_guests_who_cannot_touch_each_others_games(client):
    mine = page_data(client.get(f"/play/{CODE}/"), "game")["id"]
    other = Client()
    theirs = page_data(other.get(f"/play/{CODE}/"), "game")["id"]
    assert mine != theirs
    response = other.post("/play/new/", {"ending": str(mine)})
    assert response.status_code == 403
    assert Game.objects.get(pk=mine).status == "open"


def test_a_guest_cannot_log_in(client):
    client.get("/play/new/")
    guest = guest_of(client).user
    assert not guest.has_usable_password()
    assert ":" in guest.username  # no sign-up can take such a name
    assert not client.get("/").wsgi_request.user.is_authenticated


def test_the_daily_page_asks_a_visitor_to_sign_up_and_offers_a_fresh_deal(client):
    response = client.get("/daily/")
    content = response.content.decode()
    assert response.status_code == 200 and "Today's deal is ranked" in content
    assert 'href="/accounts/signup/?next=/daily/"' in content
    assert 'href="/accounts/login/?next=/daily/"' in content
    assert 'href="/play/new/"' in content
    assert not Game.objects.exists() and not Guest.objects.exists()


def test_a_guest_who_types_todays_daily_code_is_refused_with_no_card(client):
    deal = DailyDeal.objects.create(date=daily.daily_today(), code="HH1-D-TODAYXX")
    client.get("/play/new/")  # a guest of this browser
    for path in (f"/play/{deal.code}/", "/play/hh1-d-todayxx/", "/deal/?code=hh1-d-todayxx"):
        response = client.get(path, follow=True)
        content = response.content.decode()
        assert response.status_code == 403, path
        assert "Today's deal is played once, by signed-in players." in content
        assert 'id="h2h-view"' not in content
    assert not Game.objects.filter(code=deal.code).exists()


def test_a_visitor_asking_for_todays_deal_is_not_made_a_guest(client):
    deal = DailyDeal.objects.create(date=daily.daily_today(), code="HH1-D-TODAYXX")
    client.cookies["django_language"] = "ms"
    response = client.get(f"/play/{deal.code}/")
    assert response.status_code == 403
    assert (
        "Agihan hari ini dimainkan sekali, oleh pemain yang log masuk." in response.content.decode()
    )
    assert not Guest.objects.exists() and not Game.objects.exists()


def test_from_midnight_on_a_guest_plays_yesterdays_deal_as_practice(client, before_midnight):
    deal = DailyDeal.objects.create(date=daily.daily_today(), code="HH1-D-TODAYXX")
    assert client.get(f"/play/{deal.code}/").status_code == 403
    before_midnight.move_to(before_midnight.midnight)
    game = page_data(client.get(f"/play/{deal.code}/"), "game")
    assert not game["ranked"] and game["practice"] and not game["awaiting_start"]


def test_a_guests_result_is_on_no_board(client, make_player):
    game_id = page_data(client.get(f"/play/{CODE}/"), "game")["id"]
    guest = guest_of(client).user
    reply = services.game_resign(game=services.LockedGame(game_id), player=guest)
    assert reply.game["result"]["score"] == 0
    assert reply.game["result"] | {"rank": None, "of": None, "board": None} == reply.game["result"]
    assert leaderboards.deal_board(CODE) == []
    assert not BoardVersion.objects.filter(board=f"deal:{CODE}").exists()  # nothing published
    ann = make_player("ann")
    anns = services.game_open(player=ann, code=CODE)
    services.game_resign(game=services.LockedGame(anns.pk), player=ann)
    assert [r.player for r in leaderboards.deal_board(CODE)] == [ann]
    assert client.get(f"/leaderboard/deal/{CODE}/").status_code == 200


def test_signing_up_keeps_the_guests_games_in_the_new_account_as_practice(client):
    code = client.get("/play/new/").url.split("/")[2]
    played = page_data(client.get(f"/play/{code}/"), "game")["id"]
    resigned = page_data(client.get(f"/play/{CODE}/"), "game")["id"]
    services.game_resign(game=services.LockedGame(resigned), player=guest_of(client).user)
    assert sign_up(client).status_code == 302
    bea = get_user_model().objects.get(username="bea")
    assert set(Game.objects.filter(player=bea).values_list("pk", flat=True)) == {played, resigned}
    assert Result.objects.get(game_id=resigned).player == bea
    assert not Game.objects.filter(ranked=True).exists()
    assert not Guest.objects.exists() and get_user_model().objects.count() == 1
    assert page_data(client.get(f"/play/{code}/"), "game")["id"] == played
    assert [r.player for r in leaderboards.deal_board(CODE)] == [bea]  # on the boards now, as Bea
    assert "You play as a guest" not in client.get(f"/play/{code}/").content.decode()


def test_a_refused_sign_up_leaves_the_guests_games_with_the_guest(client):
    client.get(f"/play/{CODE}/")
    assert sign_up(client, email="").status_code == 200
    assert Game.objects.get().player == guest_of(client).user


def test_a_sign_up_without_guest_games_works_as_ever(client):
    assert sign_up(client).status_code == 302
    assert Profile.objects.get().display_name == "Bea"


def test_new_guests_from_one_address_are_limited_but_a_guest_plays_on(settings):
    settings.ACCOUNT_RATE_LIMITS = {**settings.ACCOUNT_RATE_LIMITS, "guest": "2/1h/ip"}
    first = Client(REMOTE_ADDR="10.2.2.2")
    for _ in range(2):
        assert Client(REMOTE_ADDR="10.2.2.2").get("/play/new/").status_code == 302
    response = first.get("/play/new/")
    assert response.status_code == 429
    assert "Too many attempts came from your address" in response.content.decode()
    assert Guest.objects.count() == 2
    assert Client(REMOTE_ADDR="10.2.2.3").get("/play/new/").status_code == 302


def test_a_guest_at_the_limit_still_plays_in_their_session(settings, client):
    settings.ACCOUNT_RATE_LIMITS = {**settings.ACCOUNT_RATE_LIMITS, "guest": "1/1h/ip"}
    assert client.get("/play/new/").status_code == 302
    for _ in range(3):
        assert client.get("/play/new/").status_code == 302
    assert Guest.objects.count() == 1


def test_guests_whose_session_expired_are_removed_with_their_games(client, make_player, settings):
    client.get(f"/play/{CODE}/")
    ann = make_player("ann")
    services.game_open(player=ann, code=CODE)
    later = timezone.now() + datetime.timedelta(seconds=settings.SESSION_COOKIE_AGE + 60)
    assert guests_expire(now=timezone.now()) == 0
    assert guests_expire(now=later) == 1
    assert not Guest.objects.exists()
    assert list(Game.objects.values_list("player__username", flat=True)) == ["ann"]


def test_a_guest_whose_session_is_gone_is_removed_by_the_command(client, capsys):
    client.get(f"/play/{CODE}/")
    Session.objects.all().delete()
    call_command("expire_guests")
    assert "Removed 1 guest" in capsys.readouterr().out
    assert not Game.objects.exists() and not get_user_model().objects.exists()


def test_a_guest_session_lasts_as_long_as_the_session_setting(client, settings):
    client.get("/play/new/")
    with time_machine.travel(datetime.timedelta(seconds=settings.SESSION_COOKIE_AGE + 60)):
        fresh = page_data(client.get(f"/play/{CODE}/", follow=True), "game")
    assert Guest.objects.count() == 2  # the expired session's guest is a stranger now
    assert Game.objects.get(pk=fresh["id"]).player == guest_of(client).user
