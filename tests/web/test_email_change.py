"""Changing the e-mail address: it takes the password, the new address counts once the link
mailed to it is followed, the old address is told, a taken address gets the same answer as a
free one, and the page is rate limited per account and per client address."""

import re

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.contrib.messages import get_messages
from django.test import Client

from game.models import Profile
from game.services import accounts as account_services
from tests.site import PASSWORD, sign_up

pytestmark = pytest.mark.django_db

LINK = re.compile(r"http://testserver(/accounts/email/confirm/\S+/)")


@pytest.fixture(autouse=True)
def english(settings):
    settings.LANGUAGE_CODE = "en"
    # Password hashing is built to be slow; these tests check many passwords.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def make_account(name: str, email: str = ""):
    user = get_user_model().objects.create_user(
        username=name, email=email or f"{name}@example.org", password=PASSWORD
    )
    Profile.objects.create(user=user, display_name=name.title())
    EmailAddress.objects.create(user=user, email=user.email, primary=True, verified=False)
    return user


@pytest.fixture
def ann():
    return make_account("ann")


def browser_of(user, address: str = "127.0.0.1", language: str = "en") -> Client:
    """A browser logged in as `user`: the player's own, or one whose session was stolen."""
    browser = Client(REMOTE_ADDR=address)
    browser.cookies["django_language"] = language
    browser.force_login(user)
    return browser


def ask(browser: Client, email: str, password: str | None = PASSWORD, **extra):
    data = {"email": email, **({"password": password} if password is not None else {}), **extra}
    return browser.post("/accounts/email/", data)


def the_address_of(user) -> tuple:
    """Where the account's mail goes: User.email and its primary EmailAddress."""
    user.refresh_from_db()
    primary = EmailAddress.objects.filter(user=user, primary=True).values_list("email", flat=True)
    return user.email, list(primary)


def link_in(message) -> str:
    return LINK.search(message.body).group(1)


def notices(response) -> list[str]:
    return [str(message) for message in get_messages(response.wsgi_request)]


# A stolen session is not enough --------------------------------------------------------------


@pytest.mark.parametrize("password", [None, "", "a-guess-1234"])
def test_a_stolen_session_without_the_password_cannot_change_the_address(ann, mailoutbox, password):
    response = ask(browser_of(ann), "thief@example.net", password=password)
    assert response.status_code == 200
    assert response.context["form"].errors["password"]
    assert the_address_of(ann) == ("ann@example.org", ["ann@example.org"])
    assert mailoutbox == []


def test_the_page_asks_for_the_password(ann):
    page = browser_of(ann).get("/accounts/email/").content.decode()
    assert 'name="password"' in page and 'type="password"' in page
    assert "Your address is ann@example.org." in page


# With the password, the address changes once the link is followed ----------------------------


def test_with_the_password_the_address_changes_only_once_the_link_is_followed(ann, mailoutbox):
    browser = browser_of(ann)
    response = ask(browser, "Ann.New@Example.net")
    assert response.status_code == 302 and response.url == "/accounts/profile/"
    assert notices(response) == [
        "We sent a link to ann.new@example.net: your address changes once you open it. "
        "Until then it stays ann@example.org."
    ]
    assert the_address_of(ann) == ("ann@example.org", ["ann@example.org"])
    link_mail, notice = mailoutbox
    assert link_mail.to == ["ann.new@example.net"]
    assert link_mail.subject == "Heart to Heart: Confirm your new e-mail address"
    assert notice.to == ["ann@example.org"]

    # Until the link is followed, the new address neither logs in nor gets a reset.
    assert not Client().login(username="ann.new@example.net", password=PASSWORD)
    Client().post("/accounts/password/reset/", {"email": "ann.new@example.net"})
    assert len(mailoutbox) == 2

    link = link_in(link_mail)
    page = browser.get(link).content.decode()
    assert "Make ann.new@example.net your account's e-mail address?" in page
    assert the_address_of(ann) == ("ann@example.org", ["ann@example.org"])  # a GET changes nothing

    response = browser.post(link)
    assert response.status_code == 302 and response.url == "/accounts/profile/"
    assert notices(response) == ["Your e-mail address is now ann.new@example.net."]
    assert the_address_of(ann) == ("ann.new@example.net", ["ann.new@example.net"])
    assert list(EmailAddress.objects.filter(user=ann).values_list("email", "verified")) == [
        ("ann.new@example.net", True)
    ]
    Client().post("/accounts/password/reset/", {"email": "ann@example.org"})
    assert len(mailoutbox) == 2  # the old address is no longer where a reset goes


def test_the_old_address_is_told_who_asked_for_what(ann, mailoutbox):
    ask(browser_of(ann), "ann.new@example.net")
    notice = mailoutbox[1]
    assert notice.to == ["ann@example.org"]
    assert notice.subject == "Heart to Heart: Your e-mail address is being changed"
    assert "account ann, with its password" in notice.body
    assert "to ann.new@example.net" in notice.body
    assert "http://testserver/accounts/password/reset/" in notice.body


def test_the_mails_speak_the_players_language(ann, mailoutbox):
    ask(browser_of(ann, language="ms"), "ann.new@example.net")
    link_mail, notice = mailoutbox
    assert link_mail.subject == "Heart to Heart: Sahkan alamat e-mel baharu anda"
    assert notice.subject == "Heart to Heart: Alamat e-mel anda sedang ditukar"
    assert "dengan kata laluannya" in notice.body


def test_the_link_works_in_another_browser_and_only_once(ann, mailoutbox):
    ask(browser_of(ann), "ann.new@example.net")
    link = link_in(mailoutbox[0])
    response = Client().post(link)
    assert response.status_code == 302 and response.url == "/accounts/login/"
    assert the_address_of(ann) == ("ann.new@example.net", ["ann.new@example.net"])
    again = Client().get(link).content.decode()
    assert "This link no longer works" in again


def test_a_link_stops_working_once_the_password_changes(ann, mailoutbox):
    """The owner warned by the notice changes the password: the link someone else asked for
    is dead."""
    ask(browser_of(ann), "thief@example.net")
    ann.set_password("a-new-heart-77")
    ann.save()
    response = Client().post(link_in(mailoutbox[0]))
    assert "This link no longer works" in response.content.decode()
    assert the_address_of(ann) == ("ann@example.org", ["ann@example.org"])


def test_a_forged_link_does_not_work(ann):
    key = account_services.email_change_key(user=ann, email="x@example.net")
    forged = key.replace(key.split(":")[-1], "A" * 27)
    page = Client().get(f"/accounts/email/confirm/{forged}/").content.decode()
    assert "This link no longer works" in page


def test_asking_for_the_current_address_says_it_is_yours_already(ann, mailoutbox):
    response = ask(browser_of(ann), "ANN@example.org")
    assert response.context["form"].errors["email"] == ["That is your address already."]
    assert mailoutbox == []


# A taken address gets the same answer -------------------------------------------------------


def test_a_taken_address_gets_the_same_answer_as_a_free_one(ann, mailoutbox):
    bea = make_account("bea")
    free = ask(browser_of(ann), "free@example.net")
    taken = ask(browser_of(ann), "BEA@example.org")
    assert (taken.status_code, taken.url) == (free.status_code, free.url)
    assert notices(taken) == [
        text.replace("free@example.net", "bea@example.org") for text in notices(free)
    ]
    assert the_address_of(bea) == ("bea@example.org", ["bea@example.org"])
    assert the_address_of(ann) == ("ann@example.org", ["ann@example.org"])
    to_bea = [message for message in mailoutbox if message.to == ["bea@example.org"]]
    assert [message.subject for message in to_bea] == [
        "Heart to Heart: An account already uses this address"
    ]
    assert not LINK.search(to_bea[0].body)  # no link that could take bea's address


def test_an_address_taken_after_the_link_was_sent_is_not_taken_from_its_new_owner(ann, mailoutbox):
    ask(browser_of(ann), "both@example.net")
    bea = make_account("bea", email="both@example.net")
    response = Client().post(link_in(mailoutbox[0]))
    assert "This link no longer works" in response.content.decode()
    assert the_address_of(ann) == ("ann@example.org", ["ann@example.org"])
    assert the_address_of(bea) == ("both@example.net", ["both@example.net"])


def test_of_two_links_to_one_address_followed_at_once_one_wins(ann, mailoutbox, monkeypatch):
    bea = make_account("bea")
    ask(browser_of(ann), "both@example.net")
    ask(browser_of(bea), "both@example.net")
    ann_link, bea_link = (link_in(m) for m in mailoutbox if m.to == ["both@example.net"])
    Client().post(ann_link)
    # Bea's link was read before Ann's was followed: the database keeps one verified owner.
    monkeypatch.setattr(account_services, "email_in_use", lambda email, besides: False)
    response = Client().post(bea_link)
    assert "This link no longer works" in response.content.decode()
    assert the_address_of(ann) == ("both@example.net", ["both@example.net"])
    assert the_address_of(bea) == ("bea@example.org", ["bea@example.org"])


# Rate limits, per account and per client address --------------------------------------------


@pytest.mark.parametrize(
    "language, refusal",
    [
        ("en", "Too many attempts. Wait a few minutes, then try again."),
        ("ms", "Terlalu banyak cubaan. Tunggu beberapa minit, kemudian cuba lagi."),
    ],
)
def test_the_sixth_attempt_of_an_account_is_refused(ann, mailoutbox, language, refusal):
    for number in range(5):  # from five addresses: the account's limit, not an address's
        browser = browser_of(ann, address=f"10.6.6.{number}", language=language)
        assert ask(browser, f"guess{number}@example.net", password="wrong").status_code == 200
    response = ask(browser_of(ann, address="10.6.7.1", language=language), "ok@example.net")
    assert response.status_code == 429
    assert refusal in response.content.decode()
    assert the_address_of(ann) == ("ann@example.org", ["ann@example.org"])
    assert mailoutbox == []


def test_attempts_from_one_address_are_limited_across_accounts(mailoutbox):
    players = [make_account(f"p{number}") for number in range(5)]
    for number in range(20):
        ask(browser_of(players[number // 4], address="10.7.7.7"), f"x{number}@example.net")
    assert len(mailoutbox) == 40  # each: a link to the new address, a notice to the old
    refused = ask(browser_of(players[4], address="10.7.7.7"), "y@example.net")
    assert refused.status_code == 429
    assert len(mailoutbox) == 40
    assert ask(browser_of(players[4], address="10.7.7.8"), "y@example.net").status_code == 302


# An account made before addresses were asked for ---------------------------------------------


def test_an_account_without_an_address_gets_its_first_through_the_link(mailoutbox):
    old = get_user_model().objects.create_user(username="old", password=PASSWORD)
    browser = Client()
    response = browser.post("/accounts/login/?next=/daily/", {"login": "old", "password": PASSWORD})
    assert response.url == "/accounts/email/?next=%2Fdaily%2F"
    assert notices(browser.get(response.url)) == ["You are logged in as old."]
    response = ask(browser, "Old@Example.org", next="/daily/")
    assert response.status_code == 302 and response.url == "/daily/"
    assert notices(response) == [
        "We sent a link to old@example.org: it becomes your address once you open it."
    ]
    assert [message.to for message in mailoutbox] == [["old@example.org"]]  # no old to tell
    assert the_address_of(old) == ("", [])
    browser.post(link_in(mailoutbox[0]))
    assert the_address_of(old) == ("old@example.org", ["old@example.org"])


# Sign-up does not give addresses away either (with verification on) -------------------------


def test_with_verification_on_a_sign_up_with_a_taken_address_looks_like_any_other(
    ann, settings, mailoutbox
):
    settings.ACCOUNT_EMAIL_VERIFICATION = "mandatory"
    free = sign_up(Client(), username="bea", email="bea@example.org", display_name="Bea")
    taken = sign_up(Client(), username="cat", email="ANN@example.org", display_name="Cat")
    assert (taken.status_code, taken.url) == (free.status_code, free.url)
    assert taken.url == "/accounts/confirm-email/"
    assert not get_user_model().objects.filter(username="cat").exists()
    to_ann = [message for message in mailoutbox if message.to == ["ann@example.org"]]
    assert [message.subject for message in to_ann] == [
        "Heart to Heart: An account already uses this address"
    ]
    assert "http://testserver/accounts/password/reset/" in to_ann[0].body
    assert the_address_of(ann) == ("ann@example.org", ["ann@example.org"])


def test_with_verification_off_a_sign_up_still_says_the_address_is_taken(ann, client):
    """The documented limit: an immediate login cannot look the same for a taken address
    without making a second account of it; the sign-up limit per address bounds the probing."""
    response = sign_up(client, email="ann@example.org")
    assert (
        "An account already uses that e-mail address." in response.context["form"].errors["email"]
    )
