"""A guest's play socket: the same socket and the same play path as an account's."""

import re

import pytest
from channels.db import database_sync_to_async
from django.conf import settings
from django.test import Client

from game.models import DailyDeal, Game
from game.selectors import daily
from game.sockets.base import CLOSE_FORBIDDEN, CLOSE_LOGGED_OUT
from h2h_site.asgi import application
from tests.site import game_log, greeted, open_socket, send

pytestmark = pytest.mark.django_db(transaction=True)


@database_sync_to_async
def guest_browser() -> tuple[Client, str, str]:
    """A visitor who opened a fresh deal: the browser, its Cookie header and the deal's code."""
    browser = Client()
    browser.cookies["django_language"] = "en"
    code = re.fullmatch(r"/play/(.+)/", browser.get("/play/new/").url).group(1)
    session = browser.cookies[settings.SESSION_COOKIE_NAME].value
    return browser, f"{settings.SESSION_COOKIE_NAME}={session}; django_language=en", code


async def test_a_guest_plays_over_the_socket_as_an_account_does(settings):
    settings.TAP_RATE = 0
    _, cookie, code = await guest_browser()
    socket, first = await greeted(cookie, code)
    assert first["type"] == "state" and first["game"]["code"] == code
    frame = await send(socket, {"type": "tap", "seq": 1, "target": "stock"})
    assert frame["type"] == "state" and frame["seq"] == 1 and frame["event"] == "draw"
    again = await send(socket, {"type": "tap", "seq": 1, "target": "stock"})
    assert again["error"] == "duplicate_seq"  # refereed exactly as an account's game
    await socket.disconnect()
    _, count, actions = await game_log(first["game"]["id"])
    assert (count, actions) == (1, ["stock"])


@database_sync_to_async
def todays_deal() -> str:
    return DailyDeal.objects.create(date=daily.daily_today(), code="HH1-D-TODAYXX").code


async def test_a_guests_socket_on_todays_deal_is_refused_with_no_card():
    _, cookie, _ = await guest_browser()
    code = await todays_deal()
    socket = await open_socket(application, code, cookie)
    frame = await socket.receive_json_from()
    assert frame["type"] == "error" and frame["error"] == "daily_today"
    assert "signed-in players" in frame["message"]
    assert (await socket.receive_output())["code"] == CLOSE_FORBIDDEN
    assert not await Game.objects.filter(code=code).aexists()


async def test_a_visitor_without_a_guest_session_is_asked_to_log_in():
    socket = await open_socket(application, "HH1-N-AAAAAAC")
    frame = await socket.receive_json_from()
    assert frame["error"] == "login_required"
    assert (await socket.receive_output())["code"] == 4001
    assert not await Game.objects.aexists()


async def test_a_guests_socket_cannot_open_another_guests_game():
    _, mine, code = await guest_browser()
    _, theirs, _ = await guest_browser()
    socket, frame = await greeted(theirs, code)
    mine_socket, my_frame = await greeted(mine, code)
    assert frame["game"]["id"] != my_frame["game"]["id"]  # each plays their own game of it
    await socket.disconnect()
    await mine_socket.disconnect()


async def test_signing_up_closes_the_guests_sockets_and_keeps_the_game():
    browser, cookie, code = await guest_browser()
    socket, first = await greeted(cookie, code)
    data = {
        "username": "bea",
        "email": "bea@example.org",
        "display_name": "Bea",
        "password1": "heart-shaped-42",
        "password2": "heart-shaped-42",
    }
    response = await database_sync_to_async(browser.post)("/accounts/signup/", data)
    assert response.status_code == 302
    assert (await socket.receive_output(timeout=2))["code"] == CLOSE_LOGGED_OUT
    session = browser.cookies[settings.SESSION_COOKIE_NAME].value
    account, frame = await greeted(f"{settings.SESSION_COOKIE_NAME}={session}", code)
    assert frame["game"]["id"] == first["game"]["id"]
    game = await Game.objects.select_related("player").aget(pk=first["game"]["id"])
    assert game.player.username == "bea"
    await account.disconnect()
