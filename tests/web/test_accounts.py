"""Accounts on allauth: sign up with an e-mail and a unique public name, log in by username or
e-mail, log out by POST, reset or change the password, rate limits per address and name."""

import asyncio
import importlib
import re
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
from game.web import forms
from tests.layers import fresh_channel_layer  # noqa: F401  (an autouse fixture)
from tests.site import PASSWORD, connect, session_cookie, sign_up

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english(settings):
    settings.LANGUAGE_CODE = "en"


@pytest.fixture
def ann():
    user = get_user_model().objects.create_user(
        username="ann", email="ann@example.org", password=PASSWORD
    )
    Profile.objects.create(user=user, display_name="Ann")
    return user


def logged_in_user(client):
    return client.get("/").wsgi_request.user


def test_signing_up_creates_the_account_and_its_public_name_and_logs_in(client):
    response = sign_up(client)
    assert response.status_code == 302 and response.url == "/"
    user = User.objects.get(username="bea")
    assert user.profile.display_name == "Bea"
    assert logged_in_user(client) == user


def test_signing_up_needs_a_display_name(client):
    response = sign_up(client, display_name="")
    assert response.status_code == 200
    assert response.context["form"].errors["display_name"]
    assert not User.objects.filter(username="bea").exists()


@pytest.mark.parametrize("taken", ["Ann", "ann", "ANN"])
def test_a_display_name_is_unique_whatever_its_case(client, ann, taken):
    response = sign_up(client, display_name=taken)
    assert "That display name is taken." in response.context["form"].errors["display_name"]
    assert not User.objects.filter(username="bea").exists()


@pytest.mark.parametrize("name", ["a/b", "two words", "x", "<b>"])
def test_a_display_name_must_make_a_clean_address(client, name):
    response = sign_up(client, display_name=name)
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
    response = sign_up(client, display_name=look_alike)
    assert error in response.context["form"].errors["display_name"]
    assert not User.objects.filter(username="bea").exists()


def test_a_name_in_another_alphabet_that_looks_like_a_taken_one_is_refused(client, make_player):
    make_player("Cape")
    response = sign_up(client, display_name="Саре")  # every letter Cyrillic
    errors = response.context["form"].errors["display_name"]
    assert "That display name looks like Cape, which is taken." in errors


@pytest.mark.parametrize("mixed", ["Зelda", "Zеlda", "Annaα"])
def test_a_name_mixing_alphabets_is_refused(client, mixed):
    response = sign_up(client, display_name=mixed)
    errors = response.context["form"].errors["display_name"]
    assert any("mixes" in error for error in errors), errors
    assert not User.objects.filter(username="bea").exists()


def test_a_full_width_name_is_stored_in_its_normal_form(client):
    sign_up(client, display_name="Ｂｅａ")
    assert User.objects.get(username="bea").profile.display_name == "Bea"


@pytest.mark.parametrize("name", ["Зоя", "Ζωή", "雪ゆきYuki", "Élodie", "Nguyễn"])
def test_a_name_in_one_writing_is_welcome(client, name):
    response = sign_up(client, display_name=name)
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
    response = sign_up(client, display_name=name)
    assert error in response.context["form"].errors["display_name"]


def test_a_look_alike_claimed_between_the_check_and_the_save_is_refused(
    client, make_player, monkeypatch
):
    real_check = forms.clean_unique_display_name
    checks = []

    def checked_before_the_claim(name, profile=None):
        checks.append(name)
        if len(checks) == 1:  # the first check ran before another request claimed "Zelda"
            return name
        return real_check(name, profile)

    make_player("Zelda")
    monkeypatch.setattr(forms, "clean_unique_display_name", checked_before_the_claim)
    response = sign_up(client, display_name="ZeIda")
    assert response.status_code == 200
    errors = response.context["form"].errors["display_name"]
    assert "That display name looks like Zelda, which is taken." in errors
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
    sign_up(client)
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
    response = client.post("/accounts/login/", {"login": "ann", "password": PASSWORD})
    assert response.status_code == 302
    assert logged_in_user(client) == ann


def test_logging_in_with_a_wrong_password_is_refused(client, ann):
    response = client.post("/accounts/login/", {"login": "ann", "password": "nope"})
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
            "oldpassword": PASSWORD,
            "password1": "a-new-heart-77",
            "password2": "a-new-heart-77",
        },
    )
    assert response.status_code == 302 and response.url == "/accounts/password_change/done/"
    ann.refresh_from_db()
    assert ann.check_password("a-new-heart-77")
    assert logged_in_user(client) == ann  # the session survives its own password change


def test_changing_the_password_needs_the_old_one(client, ann):
    client.force_login(ann)
    data = {
        "oldpassword": "wrong",
        "password1": "a-new-heart-77",
        "password2": "a-new-heart-77",
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
    sign_up(client)
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


# E-mail: required and unique at sign-up, a login name, where a reset is sent -------------


def test_signing_up_needs_an_email_address(client):
    response = sign_up(client, email="")
    assert response.context["form"].errors["email"]
    assert not User.objects.filter(username="bea").exists()


@pytest.mark.parametrize("taken", ["ann@example.org", "ANN@Example.org"])
def test_an_email_address_is_unique_whatever_its_case(client, ann, taken):
    response = sign_up(client, email=taken)
    errors = response.context["form"].errors["email"]
    assert "An account already uses that e-mail address." in errors
    assert not User.objects.filter(username="bea").exists()


def test_the_email_is_stored_in_lower_case_and_is_the_accounts_address(client):
    sign_up(client, email="Bea@Example.ORG")
    user = User.objects.get(username="bea")
    assert user.email == "bea@example.org"
    assert list(user.emailaddress_set.values_list("email", "primary")) == [
        ("bea@example.org", True)
    ]


@pytest.mark.parametrize("login", ["ann@example.org", "ANN@EXAMPLE.ORG", "Ann"])
def test_logging_in_with_the_email_or_the_username_in_any_case(client, ann, login):
    response = client.post("/accounts/login/", {"login": login, "password": PASSWORD})
    assert response.status_code == 302
    assert logged_in_user(client) == ann


def test_signing_up_in_malay_shows_the_fields_in_malay(client, settings):
    settings.LANGUAGE_CODE = "ms"
    content = client.get("/accounts/signup/").content.decode()
    for label in ["Nama pengguna", "E-mel", "Nama paparan", "Kata laluan"]:
        assert label in content, label


def test_email_verification_is_off_unless_turned_on(client, settings):
    assert settings.ACCOUNT_EMAIL_VERIFICATION == "none"
    sign_up(client)
    assert logged_in_user(client).username == "bea"


def test_with_email_verification_on_a_new_account_confirms_its_address_first(
    client, settings, mailoutbox
):
    settings.ACCOUNT_EMAIL_VERIFICATION = "mandatory"
    response = sign_up(client)
    assert response.status_code == 302 and response.url == "/accounts/confirm-email/"
    assert not logged_in_user(client).is_authenticated
    assert "Check your e-mail" in client.get(response.url).content.decode()
    assert [message.to for message in mailoutbox] == [["bea@example.org"]]
    confirm = re.search(r"http://testserver(/accounts/confirm-email/\S+/)", mailoutbox[0].body)
    link = confirm.group(1)
    assert "Is bea@example.org your address?" in client.get(link).content.decode()
    assert client.post(link).status_code == 302
    response = client.post("/accounts/login/", {"login": "bea", "password": PASSWORD})
    assert response.status_code == 302 and logged_in_user(client).username == "bea"


def test_an_account_without_an_email_is_asked_for_one_at_its_next_login(client, mailoutbox):
    old = User.objects.create_user(username="old", password=PASSWORD)
    Profile.objects.create(user=old, display_name="Old")
    response = client.post("/accounts/login/?next=/daily/", {"login": "old", "password": PASSWORD})
    assert response.status_code == 302
    assert response.url == "/accounts/email/?next=%2Fdaily%2F"
    page = client.get(response.url).content.decode()
    assert "Your account has no e-mail address yet" in page
    # Like any change of address (tests/web/test_email_change.py): the password, then the link.
    data = {"email": "Old@Example.org", "password": PASSWORD, "next": "/daily/"}
    response = client.post("/accounts/email/", data)
    assert response.status_code == 302 and response.url == "/daily/"
    confirm = re.search(r"http://testserver(/accounts/email/confirm/\S+/)", mailoutbox[0].body)
    client.post(confirm.group(1))
    old.refresh_from_db()
    assert old.email == "old@example.org"
    assert old.emailaddress_set.get().primary


def test_an_accounts_email_cannot_be_one_another_account_uses(client, ann, mailoutbox):
    other = User.objects.create_user(username="old", password=PASSWORD)
    client.force_login(other)
    client.post("/accounts/email/", {"email": "ANN@example.org", "password": PASSWORD})
    # The page says it sent a link, as for a free address; the owner is told instead.
    assert [message.subject for message in mailoutbox] == [
        "Heart to Heart: An account already uses this address"
    ]
    other.refresh_from_db()
    assert other.email == ""


def test_an_account_with_an_email_logs_in_straight_to_its_page(client, ann):
    response = client.post("/accounts/login/?next=/daily/", {"login": "ann", "password": PASSWORD})
    assert response.url == "/daily/"


@pytest.mark.parametrize(
    "language, link", [("en", "Forgot password?"), ("ms", "Lupa kata laluan?")]
)
def test_the_login_page_links_to_the_password_reset(client, settings, language, link):
    settings.LANGUAGE_CODE = language
    content = client.get("/accounts/login/").content.decode()
    assert f'<a href="/accounts/password/reset/">{link}</a>' in content


def reset_link(message) -> str:
    return re.search(r"http://testserver(/accounts/password/reset/key/\S+)", message.body).group(1)


def test_a_password_reset_emails_a_link_that_sets_a_new_password(client, ann, mailoutbox):
    response = client.post("/accounts/password/reset/", {"email": "ANN@example.org"})
    assert response.status_code == 302 and response.url == "/accounts/password/reset/done/"
    assert [message.to for message in mailoutbox] == [["ann@example.org"]]
    assert "ann" in mailoutbox[0].body  # the username, in case that was forgotten too
    form_page = client.get(reset_link(mailoutbox[0]), follow=True)
    assert "Choose a new password" in form_page.content.decode()
    data = {"password1": "a-new-heart-77", "password2": "a-new-heart-77"}
    response = client.post(form_page.redirect_chain[-1][0], data)
    assert response.status_code == 302
    ann.refresh_from_db()
    assert ann.check_password("a-new-heart-77")


def test_a_password_reset_email_speaks_the_players_language(client, settings, ann, mailoutbox):
    settings.LANGUAGE_CODE = "ms"
    client.post("/accounts/password/reset/", {"email": "ann@example.org"})
    assert "kata laluan" in mailoutbox[0].subject.lower()
    assert "kata laluan" in mailoutbox[0].body


def test_a_password_reset_for_an_unknown_address_sends_nothing_and_says_the_same(
    client, mailoutbox
):
    response = client.post("/accounts/password/reset/", {"email": "nobody@example.org"})
    assert response.status_code == 302 and response.url == "/accounts/password/reset/done/"
    assert mailoutbox == []


def test_a_used_reset_link_no_longer_works(client, ann, mailoutbox):
    client.post("/accounts/password/reset/", {"email": "ann@example.org"})
    link = reset_link(mailoutbox[0])
    form_page = client.get(link, follow=True)
    data = {"password1": "a-new-heart-77", "password2": "a-new-heart-77"}
    client.post(form_page.redirect_chain[-1][0], data)
    again = Client().get(link, follow=True).content.decode()
    assert "This link no longer works" in again


def test_an_allauth_page_the_site_does_not_draw_stands_in_the_sites_frame(client, ann):
    ann.set_unusable_password()
    ann.save()
    client.force_login(ann)
    response = client.get("/accounts/password/set/")
    content = " ".join(response.content.decode().split())  # as a browser reads the text
    assert response.status_code == 200 and '<nav class="site-nav"' in content
    assert '<main id="content" class="page card narrow allauth">' in content
    assert "<title> Set Password — Heart to Heart</title>" in content


@pytest.mark.parametrize(
    ("language", "heading"), [("en", "Account inactive"), ("ms", "Akaun tidak aktif")]
)
def test_the_inactive_account_page_speaks_the_players_language(client, language, heading):
    client.cookies["django_language"] = language
    content = client.get("/accounts/inactive/").content.decode()
    assert f"<h1>{heading}</h1>" in content and '<nav class="site-nav"' in content


@pytest.mark.parametrize(
    ("language", "heading"), [("en", "Confirm it is you"), ("ms", "Sahkan bahawa ini anda")]
)
def test_confirming_access_again_asks_for_the_password(client, ann, language, heading):
    client.force_login(ann)
    client.cookies["django_language"] = language
    content = client.get("/accounts/reauthenticate/").content.decode()
    assert f"<h1>{heading}</h1>" in content and 'type="password"' in content
    response = client.post("/accounts/reauthenticate/", {"password": PASSWORD})
    assert response.status_code == 302


def test_in_development_the_reset_email_is_printed_on_the_console(settings, capsys, ann):
    settings.EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
    Client().post("/accounts/password/reset/", {"email": "ann@example.org"})
    assert "/accounts/password/reset/key/" in capsys.readouterr().out


def test_the_old_password_change_address_leads_to_the_form(client, ann):
    client.force_login(ann)
    assert 'name="oldpassword"' in client.get("/accounts/password_change/").content.decode()
    response = client.get("/accounts/password/change/")
    assert response.status_code == 302 and response.url == "/accounts/password_change/"


# Rate limits per address and per name typed (allauth's) -----------------------------------


@pytest.fixture(autouse=True)
def fast_hashing(settings):
    """Password hashing is built to be slow; these tests make many accounts and guesses."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def log_in(client, username, password, address, **headers):
    data = {"login": username, "password": password}
    return client.post("/accounts/login/", data, REMOTE_ADDR=address, **headers)


def test_failed_logins_from_one_ipv6_64_count_as_one_address(fast_hashing, ann):
    # A fresh address of the attacker's /64 for every guess, and a fresh username too.
    for number in range(20):
        log_in(Client(), f"nobody{number}", "wrong", f"2001:db8:1:2:{number:x}::1")
    response = log_in(Client(), "ann", PASSWORD, "2001:db8:1:2:ffff:ffff:ffff:ffff")
    assert response.status_code == 429
    assert "Too many failed logins. Wait 15 minutes" in response.content.decode()
    assert log_in(Client(), "ann", PASSWORD, "2001:db8:1:3::1").status_code == 302


def test_an_ipv4_mapped_address_counts_as_its_ipv4_address(fast_hashing, ann):
    for number in range(10):
        log_in(Client(), f"nobody{number}", "wrong", "10.1.2.3")
        log_in(Client(), f"someone{number}", "wrong", "::ffff:10.1.2.3")
    assert log_in(Client(), "ann", PASSWORD, "10.1.2.3").status_code == 429
    assert log_in(Client(), "ann", PASSWORD, "::ffff:10.1.2.4").status_code == 302


def test_a_spoofed_x_forwarded_for_does_not_dodge_the_limit(fast_hashing, ann):
    # Behind the proxy daphne --proxy-headers has set REMOTE_ADDR from the proxy's header; a
    # header the client adds itself is never read.
    for number in range(20):
        spoofed = {"HTTP_X_FORWARDED_FOR": f"192.0.2.{number}"}
        log_in(Client(), f"nobody{number}", "wrong", "10.8.8.8", **spoofed)
    spoofed = {"HTTP_X_FORWARDED_FOR": "198.51.100.1"}
    assert log_in(Client(), "ann", PASSWORD, "10.8.8.8", **spoofed).status_code == 429


def sign_up_from(address: str, number: int, language: str = "en"):
    client = Client(REMOTE_ADDR=address)
    client.cookies["django_language"] = language
    return sign_up(
        client, username=f"new{number}", display_name=f"New{number}", email=f"n{number}@x.org"
    )


def test_the_eleventh_sign_up_from_one_address_is_refused(fast_hashing):
    for number in range(10):
        assert sign_up_from("10.5.5.5", number).status_code == 302
    response = sign_up_from("10.5.5.5", 10)
    assert response.status_code == 429
    assert "Too many attempts came from your address" in response.content.decode()
    assert not User.objects.filter(username="new10").exists()
    assert sign_up_from("10.5.5.6", 11).status_code == 302


def test_sign_ups_from_one_ipv6_64_count_together_and_are_refused_in_malay(fast_hashing):
    for number in range(10):
        assert sign_up_from(f"2001:db8:5:5::{number + 1}", number).status_code == 302
    response = sign_up_from("2001:db8:5:5:ffff::1", 10, language="ms")
    assert response.status_code == 429
    assert "Terlalu banyak cubaan" in response.content.decode()
    assert sign_up_from("2001:db8:5:6::1", 11).status_code == 302


def test_password_resets_are_limited_per_address(fast_hashing, ann, mailoutbox):
    for number in range(20):
        Client().post(
            "/accounts/password/reset/", {"email": f"x{number}@x.org"}, REMOTE_ADDR="10.4.4.4"
        )
    response = Client().post(
        "/accounts/password/reset/", {"email": "ann@example.org"}, REMOTE_ADDR="10.4.4.4"
    )
    assert response.status_code == 429
    assert mailoutbox == []


def test_password_resets_are_limited_per_address_asked_for(fast_hashing, ann, mailoutbox):
    for number in range(5):
        Client().post(
            "/accounts/password/reset/",
            {"email": "ann@example.org"},
            REMOTE_ADDR=f"10.3.3.{number}",
        )
    response = Client().post(
        "/accounts/password/reset/", {"email": "ANN@example.org"}, REMOTE_ADDR="10.3.3.99"
    )
    assert response.status_code == 429
    assert len(mailoutbox) == 5


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
    data = {"oldpassword": old, "password1": NEW_PASSWORD, "password2": NEW_PASSWORD}
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
