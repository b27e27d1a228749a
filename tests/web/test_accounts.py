"""Accounts: sign up with a unique public name, log in, log out by POST, change the password."""

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.test import Client

from game.models import Profile

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


# Throttling by address (game.throttle) ---------------------------------------------------


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


def test_sign_ups_from_one_ipv6_64_count_together_and_are_refused_in_malay(
    fast_hashing, settings
):
    settings.SIGNUPS_PER_ADDRESS = 2
    for number in range(2):
        assert sign_up_from(f"2001:db8:5:5::{number + 1}", number).status_code == 302
    response = sign_up_from("2001:db8:5:5:ffff::1", 2, language="ms")
    assert response.status_code == 429
    assert "Terlalu banyak akaun telah dibuat dari alamat anda" in response.content.decode()
    assert sign_up_from("2001:db8:5:6::1", 3).status_code == 302
