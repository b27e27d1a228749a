"""One ranked attempt per address, attacked over the real socket and pages: read the stock in
the ranked game, resign, delete the account, sign up again with the same address, and open
today's deal again. The new account's game is practice, shown as such on its socket."""

import pytest
from channels.db import database_sync_to_async
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client

from game.services.daily import daily_deal
from tests.site import PASSWORD, greeted, send, sign_up

pytestmark = pytest.mark.django_db(transaction=True)


@database_sync_to_async
def signed_up(email: str, name: str) -> tuple[Client, str]:
    """A browser that signed up with `email`: the client and its Cookie header."""
    browser = Client()
    response = sign_up(browser, email=email, username=name, display_name=name.title())
    assert response.status_code == 302
    session = browser.cookies[settings.SESSION_COOKIE_NAME].value
    return browser, f"{settings.SESSION_COOKIE_NAME}={session}; django_language=en"


@database_sync_to_async
def todays_code() -> str:
    return daily_deal().code


@database_sync_to_async
def deleted(browser: Client) -> None:
    assert browser.post("/accounts/delete/", {"password": PASSWORD}).status_code == 302
    assert not get_user_model().objects.filter(username="scout").exists()


async def scouted_and_resigned(cookie: str, code: str) -> None:
    """Start the ranked game, draw the whole stock (its order is read), resign."""
    socket, first = await greeted(cookie, code)
    assert first["game"]["ranked"] and first["game"]["awaiting_start"]
    assert (await send(socket, {"type": "start", "seq": 1}))["event"] == "start"
    for seq in range(2, 28):
        await send(socket, {"type": "tap", "seq": seq, "target": "stock"})
    assert (await send(socket, {"type": "resign", "seq": 28}))["event"] == "resign"
    await socket.disconnect()


async def test_a_deleted_account_signed_up_again_with_its_address_gets_practice_only(settings):
    settings.TAP_RATE = 0
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    browser, cookie = await signed_up("scout@example.org", "scout")
    code = await todays_code()
    await scouted_and_resigned(cookie, code)
    await deleted(browser)
    _, cookie = await signed_up("Scout@Example.org", "scout2")
    socket, again = await greeted(cookie, code)
    assert not again["game"]["ranked"] and again["game"]["practice"]
    assert not again["game"]["awaiting_start"]
    await socket.disconnect()
