"""A short message on the next page confirms each thing a player does to their account and
their follows: signing up, logging in, deleting the account, following and unfollowing; in the
player's language, once."""

import re

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model

from game.models import Profile
from tests.site import PASSWORD, sign_up, speaking

pytestmark = pytest.mark.django_db

SAID = {
    "en": {
        "signed up": "Welcome, Bea: your account is ready.",
        "logged in": "You are logged in as Cleo.",
        "deleted": "Your account and everything of it are deleted.",
        "followed": "You now follow Bea.",
        "unfollowed": "You no longer follow Bea.",
    },
    "ms": {
        "signed up": "Selamat datang, Bea: akaun anda sudah sedia.",
        "logged in": "Anda telah log masuk sebagai Cleo.",
        "deleted": "Akaun anda dan segala-galanya tentangnya telah dipadam.",
        "followed": "Anda kini mengikuti Bea.",
        "unfollowed": "Anda tidak lagi mengikuti Bea.",
    },
}


@pytest.fixture(params=sorted(SAID))
def language(request):
    return request.param


def notices(response) -> list[str]:
    """The texts of the page's messages: the site's layout shows them above the content."""
    page = response.content.decode()
    listed = re.search(r'<ul class="messages" role="status">(.*?)</ul>', page, re.S)
    return re.findall(r'<li class="message success">(.*?)</li>', listed[1]) if listed else []


@pytest.fixture
def cleo():
    user = get_user_model().objects.create_user(
        username="cleo", email="cleo@example.org", password=PASSWORD
    )
    Profile.objects.create(user=user, display_name="Cleo")
    return user


def test_signing_up_says_welcome_on_the_next_page(client, language):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    response = sign_up(client)
    assert notices(client.get(response.url)) == [SAID[language]["signed up"]]
    assert notices(client.get(response.url)) == []  # said once


def test_logging_in_says_who_is_logged_in(cleo, language):
    client = speaking(language)
    response = client.post("/accounts/login/", {"login": "cleo", "password": PASSWORD})
    assert notices(client.get(response.url)) == [SAID[language]["logged in"]]


def test_deleting_the_account_says_so_on_the_front_page(player, language):
    client = speaking(language, player)
    response = client.post("/accounts/delete/", {"password": "ann-pw-4213"}, follow=True)
    assert notices(response) == [SAID[language]["deleted"]]


def test_following_and_unfollowing_say_so_on_the_players_page(player, rival, language):
    client = speaking(language, player)
    followed = client.post("/players/Bea/follow/", follow=True)
    assert notices(followed) == [SAID[language]["followed"]]
    unfollowed = client.post("/players/Bea/unfollow/", follow=True)
    assert notices(unfollowed) == [SAID[language]["unfollowed"]]


def test_a_refused_follow_says_nothing_of_following(player, language):
    response = speaking(language, player).post("/players/Ann/follow/")
    assert response.status_code == 400 and notices(response) == []
