"""Accounts: sign up with a unique public name, log in, log out by POST, change the password."""

import asyncio
import importlib
import time

import pytest
from channels.db import database_sync_to_async
from django.apps import apps
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.contrib.sessions.models import Session
from django.db import IntegrityError, transaction
from django.test import AsyncClient, Client

from game import services
from game.models import Profile
from game.services import races
from game.sockets.base import CLOSE_LOGGED_OUT
from game.web.forms import SignupForm, save_unless_taken
from tests.realtime import connect, fresh_channel_layer  # noqa: F401  (the fixture)
from tests.site import session_cookie

pytestmark = pytest.mark.django_db

PASSWORD = "heart-shaped-42"


@pytest.fixture(autouse=True)
def english(settings):
    settings.LANGUAGE_CODE = "en"


@pytest.fixture
def ann():
    user = get_user_model().objects.create_user(username="ann", password=PASSWORD)
    Profile.objects.create(user=user, display_name="Ann")
    return user


def signup(client, **changes):
    data = {
        "username": "bea",
        "display_name": "Bea",
        "password1": PASSWORD,
        "password2": PASSWORD,
        **changes,
    }
    return client.post("/accounts/signup/", data)


def logged_in_user(client):
    return client.get("/").wsgi_request.user


def test_signing_up_creates_the_account_and_its_public_name_and_logs_in(client):
    response = signup(client)
    assert response.status_code == 302 and response.url == "/"
    user = User.objects.get(username="bea")
    assert user.profile.display_name == "Bea"
    assert logged_in_user(client) == user


def test_signing_up_needs_a_display_name(client):
    response = signup(client, display_name="")
    assert response.status_code == 200
    assert response.context["form"].errors["display_name"]
    assert not User.objects.filter(username="bea").exists()


@pytest.mark.parametrize("taken", ["Ann", "ann", "ANN"])
def test_a_display_name_is_unique_whatever_its_case(client, ann, taken):
    response = signup(client, display_name=taken)
    assert "That display name is taken." in response.context["form"].errors["display_name"]
    assert not User.objects.filter(username="bea").exists()


@pytest.mark.parametrize("name", ["a/b", "two words", "x", "<b>"])
def test_a_display_name_must_make_a_clean_address(client, name):
    response = signup(client, display_name=name)
    assert response.context["form"].errors["display_name"]
    assert not Profile.objects.exists()


LOOKS_LIKE_ZELDA = "That display name looks like Zelda, which is taken."


@pytest.mark.parametrize(
    "look_alike, error",
    [
        ("Ｚｅｌｄａ", "That display name is taken."),  # full width: the "Zelda" it shows as
        ("ZELDA", "That display name is taken."),  # only its case differs
        ("ZeIda", LOOKS_LIKE_ZELDA),  # a capital I for the l
        ("Ze1da", LOOKS_LIKE_ZELDA),  # a digit one for the l
    ],
)
def test_a_name_that_looks_like_a_taken_one_is_refused(client, make_player, look_alike, error):
    make_player("Zelda")
    response = signup(client, display_name=look_alike)
    assert error in response.context["form"].errors["display_name"]
    assert not User.objects.filter(username="bea").exists()


def test_a_name_in_another_alphabet_that_looks_like_a_taken_one_is_refused(client, make_player):
    make_player("Cape")
    response = signup(client, display_name="Саре")  # every letter Cyrillic
    errors = response.context["form"].errors["display_name"]
    assert "That display name looks like Cape, which is taken." in errors


@pytest.mark.parametrize("mixed", ["Зelda", "Zеlda", "Annaα"])
def test_a_name_mixing_alphabets_is_refused(client, mixed):
    response = signup(client, display_name=mixed)
    errors = response.context["form"].errors["display_name"]
    assert any("mixes" in error for error in errors), errors
    assert not User.objects.filter(username="bea").exists()


def test_a_full_width_name_is_stored_in_its_normal_form(client):
    signup(client, display_name="Ｂｅａ")
    assert User.objects.get(username="bea").profile.display_name == "Bea"


@pytest.mark.parametrize("name", ["Зоя", "Ζωή", "雪ゆきYuki", "Élodie", "Nguyễn"])
def test_a_name_in_one_writing_is_welcome(client, name):
    response = signup(client, display_name=name)
    assert response.status_code == 302
    assert User.objects.get(username="bea").profile.display_name == name


@pytest.mark.parametrize(
    "name, error",
    [
        ("Зelda", "Tulis nama paparan dalam satu abjad; nama ini mencampurkan Cyrillic, Latin."),
        ("ZeIda", "Nama paparan itu kelihatan seperti Zelda, yang sudah digunakan."),
    ],
)
def test_a_look_alike_is_refused_in_malay(client, settings, make_player, name, error):
    settings.LANGUAGE_CODE = "ms"
    make_player("Zelda")
    response = signup(client, display_name=name)
    assert error in response.context["form"].errors["display_name"]


def test_a_look_alike_claimed_between_the_check_and_the_save_is_refused(make_player):
    form = SignupForm(
        {"username": "bea", "display_name": "ZeIda", "password1": PASSWORD, "password2": PASSWORD},
        address="10.0.0.1",
    )
    assert form.is_valid()
    make_player("Zelda")  # claimed meanwhile, by another request
    assert save_unless_taken(form) is None
    assert "That display name looks like Zelda, which is taken." in form.errors["display_name"]
    assert not User.objects.filter(username="bea").exists()


def test_the_database_refuses_a_second_name_of_one_skeleton(ann):
    other = User.objects.create_user(username="eve")
    with pytest.raises(IntegrityError), transaction.atomic():
        Profile.objects.create(user=other, display_name="Αnn")  # a Greek Alpha


def test_the_migration_gives_existing_names_their_skeleton_and_the_first_look_alike_keeps_it(
    ann,
):
    other = User.objects.create_user(username="eve")
    Profile.objects.create(user=other, display_name="Anna")
    Profile.objects.bulk_create([Profile(user=User.objects.create_user("cy"), display_name="Αnn")])
    Profile.objects.update(name_skeleton=None)
    migration = importlib.import_module("game.migrations.0004_display_name_skeleton")
    migration.fill_skeletons(apps, schema_editor=None)
    skeletons = dict(Profile.objects.values_list("user__username", "name_skeleton"))
    assert skeletons == {"ann": "Ann", "eve": "Anna", "cy": None}


def test_renaming_to_a_look_alike_is_refused(client, ann):
    signup(client)
    response = client.post("/accounts/profile/", {"display_name": "Ａｎｎ"})
    assert "That display name is taken." in response.context["form"].errors["display_name"]
    response = client.post("/accounts/profile/", {"display_name": "Bea_"})
    assert response.status_code == 302


def test_the_admin_applies_the_same_rule(admin_client, ann):
    other = User.objects.create_user(username="eve")
    data = {"user": other.pk, "display_name": "Αnn"}
    response = admin_client.post("/admin/game/profile/add/", data)
    assert response.status_code == 200
    assert not Profile.objects.filter(user=other).exists()


def test_logging_in_with_the_right_password_works(client, ann):
    response = client.post("/accounts/login/", {"username": "ann", "password": PASSWORD})
    assert response.status_code == 302
    assert logged_in_user(client) == ann


def test_logging_in_with_a_wrong_password_is_refused(client, ann):
    response = client.post("/accounts/login/", {"username": "ann", "password": "nope"})
    assert response.status_code == 200
    assert response.context["form"].errors
    assert not logged_in_user(client).is_authenticated


def test_logging_out_is_a_post(client, ann):
    client.force_login(ann)
    assert client.get("/accounts/logout/").status_code == 405
    assert logged_in_user(client).is_authenticated
    response = client.post("/accounts/logout/")
    assert response.status_code == 302
    assert not logged_in_user(client).is_authenticated


def test_changing_the_password(client, ann):
    client.force_login(ann)
    response = client.post(
        "/accounts/password_change/",
        {
            "old_password": PASSWORD,
            "new_password1": "a-new-heart-77",
            "new_password2": "a-new-heart-77",
        },
    )
    assert response.status_code == 302 and response.url == "/accounts/password_change/done/"
    ann.refresh_from_db()
    assert ann.check_password("a-new-heart-77")
    assert logged_in_user(client) == ann  # the session survives its own password change


def test_changing_the_password_needs_the_old_one(client, ann):
    client.force_login(ann)
    data = {
        "old_password": "wrong",
        "new_password1": "a-new-heart-77",
        "new_password2": "a-new-heart-77",
    }
    response = client.post("/accounts/password_change/", data)
    assert response.status_code == 200
    ann.refresh_from_db()
    assert ann.check_password(PASSWORD)


def test_changing_the_password_needs_a_login(client):
    response = client.get("/accounts/password_change/")
    assert response.status_code == 302 and response.url.startswith("/accounts/login/")


def test_renaming_yourself(client, ann):
    client.force_login(ann)
    response = client.post("/accounts/profile/", {"display_name": "Annie"})
    assert response.status_code == 302
    assert Profile.objects.get(user=ann).display_name == "Annie"


def test_renaming_to_your_own_name_in_another_case_is_allowed(client, ann):
    client.force_login(ann)
    client.post("/accounts/profile/", {"display_name": "ANN"})
    assert Profile.objects.get(user=ann).display_name == "ANN"


def test_renaming_to_someone_elses_name_is_refused(client, ann):
    signup(client)
    response = client.post("/accounts/profile/", {"display_name": "ann"})
    assert "That display name is taken." in response.context["form"].errors["display_name"]
    assert Profile.objects.get(user__username="bea").display_name == "Bea"


def test_an_account_made_without_a_profile_can_choose_a_name(client):
    user = User.objects.create_user(username="staff", password=PASSWORD)
    client.force_login(user)
    assert client.get("/accounts/profile/").status_code == 200
    client.post("/accounts/profile/", {"display_name": "Staff"})
    assert Profile.objects.get(user=user).display_name == "Staff"


def test_the_profile_page_needs_a_login(client):
    response = client.get("/accounts/profile/")
    assert response.status_code == 302 and response.url.startswith("/accounts/login/")


# Throttling by address (game.web.throttle) ---------------------------------------------------


@pytest.fixture
def fast_hashing(settings):
    """Password hashing is built to be slow; these tests make many accounts and guesses."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def log_in(client, username, password, address):
    return client.post(
        "/accounts/login/", {"username": username, "password": password}, REMOTE_ADDR=address
    )


def test_failed_logins_from_one_ipv6_64_count_as_one_address(fast_hashing, ann):
    # A fresh address of the attacker's /64 for every guess, and a fresh username too.
    for number in range(20):
        log_in(Client(), f"nobody{number}", "wrong", f"2001:db8:1:2:{number:x}::1")
    response = log_in(Client(), "ann", PASSWORD, "2001:db8:1:2:ffff:ffff:ffff:ffff")
    assert response.status_code == 429
    assert "Too many failed logins" in response.content.decode()
    assert log_in(Client(), "ann", PASSWORD, "2001:db8:1:3::1").status_code == 302


def test_an_ipv4_mapped_address_counts_as_its_ipv4_address(fast_hashing, ann):
    for number in range(10):
        log_in(Client(), f"nobody{number}", "wrong", "10.1.2.3")
        log_in(Client(), f"someone{number}", "wrong", "::ffff:10.1.2.3")
    assert log_in(Client(), "ann", PASSWORD, "10.1.2.3").status_code == 429


def sign_up_from(address: str, number: int, language: str = "en"):
    client = Client(REMOTE_ADDR=address)
    client.cookies["django_language"] = language
    return signup(client, username=f"new{number}", display_name=f"New{number}")


def test_the_eleventh_sign_up_from_one_address_is_refused(fast_hashing):
    for number in range(10):
        assert sign_up_from("10.5.5.5", number).status_code == 302
    response = sign_up_from("10.5.5.5", 10)
    assert response.status_code == 429
    assert response.context["form"].has_error("__all__", "throttled")
    assert "Too many accounts were made from your address. Wait 60 minutes" in (
        response.content.decode()
    )
    assert not User.objects.filter(username="new10").exists()
    assert sign_up_from("10.5.5.6", 11).status_code == 302


def test_sign_ups_from_one_ipv6_64_count_together_and_are_refused_in_malay(fast_hashing, settings):
    settings.SIGNUPS_PER_ADDRESS = 2
    for number in range(2):
        assert sign_up_from(f"2001:db8:5:5::{number + 1}", number).status_code == 302
    response = sign_up_from("2001:db8:5:5:ffff::1", 2, language="ms")
    assert response.status_code == 429
    assert "Terlalu banyak akaun telah dibuat dari alamat anda" in response.content.decode()
    assert sign_up_from("2001:db8:5:6::1", 3).status_code == 302


# A password change ends the player's other sessions -------------------------------------

CODE, WATCHED_CODE = "HH1-N-AAAAAAC", "HH1-N-AAAAAAD"
NEW_PASSWORD = "a-new-heart-77"


@database_sync_to_async
def open_game(player, code: str) -> int:
    return services.game_open(player=player, code=code).pk


async def sockets_of(cookie: str, *, watched: int, room: str) -> list:
    """A session's play, watch and race sockets, each past its first frame."""
    sockets = [
        await connect(f"/ws/play/{CODE}/", cookie),
        await connect(f"/ws/watch/{watched}/", cookie),
        await connect(f"/ws/race/{room}/", cookie),
    ]
    for socket, first in zip(sockets, ["state", "state", "room"], strict=True):
        assert (await socket.receive_json_from())["type"] == first
    return sockets


async def close_code(socket, within: float) -> int | None:
    """The code the socket closes with within `within` seconds, frames before it skipped."""
    deadline = time.monotonic() + within
    while True:
        output = await socket.receive_output(timeout=max(deadline - time.monotonic(), 0.01))
        if output["type"] == "websocket.close":
            return output["code"]


async def still_open(socket, after: float = 0.5) -> bool:
    """Nothing the socket sent in `after` seconds closed it."""
    await asyncio.sleep(after)
    outputs = []
    while not socket.output_queue.empty():
        outputs.append(socket.output_queue.get_nowait())
    return not socket.future.done() and all(o["type"] != "websocket.close" for o in outputs)


async def change_password(cookie: str, old: str) -> AsyncClient:
    """The player changes the password through the page: the browser that did it."""
    browser = AsyncClient()
    browser.cookies.load(cookie)
    data = {"old_password": old, "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD}
    response = await browser.post("/accounts/password_change/", data)
    assert response.status_code == 302 and response.url == "/accounts/password_change/done/"
    return browser


async def page_is_logged_in(browser: AsyncClient) -> bool:
    return (await browser.get("/accounts/profile/")).status_code == 200


@pytest.fixture
async def two_sessions(player, rival):
    """Ann's sessions A and B, each with open play, watch and race sockets."""
    watched = await open_game(rival, WATCHED_CODE)
    room = (await database_sync_to_async(races.race_create)(player=player, code="")).room
    cookies = [await database_sync_to_async(session_cookie)(player) for _ in "AB"]
    sockets = [await sockets_of(cookie, watched=watched, room=room) for cookie in cookies]
    yield cookies, sockets
    for socket in sockets[0] + sockets[1]:
        if not socket.future.done():  # not given up on by a failed wait
            await socket.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_a_password_change_closes_the_other_sessions_sockets_within_two_seconds(
    two_sessions,
):
    (a_cookie, b_cookie), (a_sockets, b_sockets) = two_sessions
    started = time.monotonic()
    a_browser = await change_password(a_cookie, old="ann-pw-4213")
    for socket in b_sockets:
        assert await close_code(socket, within=2) == CLOSE_LOGGED_OUT
    assert time.monotonic() - started < 2
    for socket in a_sockets:
        assert await still_open(socket)
    assert await page_is_logged_in(a_browser)
    b_browser = AsyncClient()
    b_browser.cookies.load(b_cookie)
    b_key = b_browser.cookies[settings.SESSION_COOKIE_NAME].value
    assert not await page_is_logged_in(b_browser)
    assert not await Session.objects.filter(session_key=b_key).aexists()  # the session ended
    again = await connect(f"/ws/play/{CODE}/", b_cookie)
    assert (await again.receive_json_from())["error"] == "login_required"


@pytest.mark.django_db(transaction=True)
async def test_after_a_password_change_logging_out_still_closes_that_sessions_sockets(
    two_sessions,
):
    (a_cookie, _), (a_sockets, _) = two_sessions
    a_browser = await change_password(a_cookie, old="ann-pw-4213")
    assert (await a_browser.post("/accounts/logout/")).status_code == 302
    for socket in a_sockets:
        assert await close_code(socket, within=2) == CLOSE_LOGGED_OUT
