"""The index of logged-in sessions (PlayerSession): a login writes its session's row under the
key the login gave it, a logout removes it, a key that cycles (a password change) takes its row
along, and clearsessions removes the rows of sessions that are gone."""

import datetime

import pytest
from django.conf import settings
from django.contrib.auth import login
from django.contrib.sessions.models import Session
from django.core.management import call_command
from django.test import Client, RequestFactory
from django.utils import timezone

from game.models import PlayerSession
from game.storage.sessions import SessionStore

pytestmark = pytest.mark.django_db

CODE = "HH1-N-AAAAAAC"
PASSWORD = "ann-pw-4213"  # make_player's password for "ann"


def key_of(client: Client) -> str:
    return client.cookies[settings.SESSION_COOKIE_NAME].value


def indexed() -> dict[str, int]:
    """session key -> user id, for every row of the index."""
    return dict(PlayerSession.objects.values_list("session_key", "user_id"))


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_a_login_indexes_its_session_under_the_key_the_login_gave_it(player):
    client = Client()
    client.get(f"/play/{CODE}/")  # a guest's session first: the login cycles its key
    before = key_of(client)
    response = client.post("/accounts/login/", {"login": "ann", "password": PASSWORD})
    assert response.status_code == 302
    assert key_of(client) != before
    assert indexed() == {key_of(client): player.pk}


def test_a_login_over_another_accounts_session_indexes_it_for_the_new_account(player, rival):
    request = RequestFactory().get("/")
    request.session = SessionStore(session_key=key_of(logged_in(rival)))
    login(request, player, backend=settings.AUTHENTICATION_BACKENDS[0])  # empties the session
    request.session.save()
    assert indexed()[request.session.session_key] == player.pk
    call_command("clearsessions")  # the emptied session's row went with it
    assert indexed() == {request.session.session_key: player.pk}


def test_logging_out_removes_that_sessions_row_only(player):
    laptop, phone = logged_in(player), logged_in(player)
    assert laptop.post("/accounts/logout/").status_code == 302
    assert indexed() == {key_of(phone): player.pk}


def test_a_password_change_takes_the_sessions_row_to_its_new_key(player):
    client, other_device = logged_in(player), logged_in(player)
    before = key_of(client)
    new = "a-new-heart-77"
    data = {"oldpassword": PASSWORD, "password1": new, "password2": new}
    assert client.post("/accounts/password_change/", data).status_code == 302
    assert key_of(client) != before
    assert indexed() == {key_of(client): player.pk, key_of(other_device): player.pk}
    assert not other_device.get("/").wsgi_request.user.is_authenticated  # ended there
    call_command("clearsessions")
    assert indexed() == {key_of(client): player.pk}


def test_a_cycled_key_keeps_its_row(player):
    client = logged_in(player)
    session = SessionStore(session_key=key_of(client))
    session.load()
    session.cycle_key()  # as a rotated secret key's fallback does at the next request
    assert indexed() == {session.session_key: player.pk}


def test_clearsessions_removes_the_rows_of_sessions_that_expired_or_went(player, rival):
    expired, gone, live = logged_in(player), logged_in(player), logged_in(rival)
    past = timezone.now() - datetime.timedelta(seconds=1)
    Session.objects.filter(session_key=key_of(expired)).update(expire_date=past)
    Session.objects.filter(session_key=key_of(gone)).delete()
    call_command("clearsessions")
    assert indexed() == {key_of(live): rival.pk}
