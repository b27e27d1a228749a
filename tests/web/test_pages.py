"""Every page renders for anyone, in the site's layout, with no inline script."""

import datetime
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.template.loader import render_to_string

from game.models import DailyDeal, Profile
from game.selectors.daily import daily_today

pytestmark = pytest.mark.django_db

CODE = "HH1-N-AAAAAAM"
YESTERDAY = daily_today() - datetime.timedelta(days=1)
PUBLIC_PAGES = [
    "/",
    "/leaderboard/daily/",
    f"/leaderboard/daily/{YESTERDAY.isoformat()}/",
    f"/leaderboard/deal/{CODE}/",
    "/leaderboard/all-time/",
    "/players/Ann/",
    "/daily/",  # for a visitor: sign up or log in to play it ranked, or play a fresh deal
]
ENTRANCE_PAGES = [
    "/accounts/login/",
    "/accounts/signup/",
    "/accounts/password/reset/",
    "/accounts/password/reset/done/",
    "/accounts/password/reset/key/1-bad-key/",
]
ACCOUNT_PAGES = [
    "/accounts/profile/",
    "/accounts/email/",
    "/accounts/password_change/",
    "/accounts/password_change/done/",
]
INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)[^>]*>", re.IGNORECASE)
INLINE_HANDLER = re.compile(r"<[^>]+\son[a-z]+\s*=", re.IGNORECASE)
META_DESCRIPTION = re.compile(r'<meta name="description" content="[^"<>]{30,200}">')


@pytest.fixture(autouse=True)
def site(settings):
    """English pages; a player, and the deals of today and yesterday (no solver run needed)."""
    settings.LANGUAGE_CODE = "en"
    user = get_user_model().objects.create_user(username="ann", password="heart-shaped-42")
    Profile.objects.create(user=user, display_name="Ann")
    DailyDeal.objects.create(date=daily_today(), code="HH1-D-TODAYXX")
    DailyDeal.objects.create(date=YESTERDAY, code="HH1-D-YESTERD")
    return user


def assert_site_page(response):
    assert response.status_code == 200
    content = response.content.decode()
    assert 'href="/static/site/site.css"' in content
    assert 'action="/i18n/setlang/"' in content
    assert not INLINE_SCRIPT.search(content)
    assert not INLINE_HANDLER.search(content)
    assert len(META_DESCRIPTION.findall(content)) == 1  # what a link preview says of the page
    return content


@pytest.mark.parametrize("url", PUBLIC_PAGES + ENTRANCE_PAGES)
def test_public_pages_render_for_anonymous_visitors(client, url):
    content = assert_site_page(client.get(url, follow=True))
    assert 'href="/accounts/login/' in content and 'href="/accounts/signup/' in content


@pytest.mark.parametrize("url", ["/accounts/login/", "/accounts/signup/"])
def test_a_logged_in_player_is_sent_home_from_the_login_and_sign_up_pages(client, site, url):
    client.force_login(site)
    response = client.get(url)
    assert response.status_code == 302 and response.url == "/"


@pytest.mark.parametrize("url", [u for u in PUBLIC_PAGES if u != "/daily/"] + ACCOUNT_PAGES)
def test_every_page_renders_for_a_logged_in_player(client, site, url):
    client.force_login(site)
    content = assert_site_page(client.get(url))
    assert 'action="/accounts/logout/"' in content
    assert 'href="/accounts/profile/">Ann<' in content


@pytest.mark.parametrize("url", ACCOUNT_PAGES)
def test_account_pages_send_anonymous_visitors_to_log_in(client, url):
    response = client.get(url)
    assert response.status_code == 302 and response.url.startswith("/accounts/login/")


def test_the_header_links_the_daily_deal_a_new_game_and_the_leaderboards(client):
    content = client.get("/").content.decode()
    for href in ("/daily/", "/play/new/", "/leaderboard/daily/"):
        assert f'href="{href}"' in content


def test_the_header_marks_the_leaderboards_while_on_one(client):
    content = client.get("/leaderboard/all-time/").content.decode()
    assert 'href="/leaderboard/daily/" aria-current="page"' in content


def test_the_home_page_offers_both_games_and_a_code_form(client):
    content = client.get("/").content.decode()
    assert "Play today's deal" in content and "New game" in content
    assert 'action="/deal/#deal-code"' in content and 'name="code"' in content


@pytest.mark.parametrize("typed", [CODE, "hh1-n-aaaaaam", " hh1 n aaaaaam "])
def test_a_typed_code_opens_its_canonical_board(client, typed):
    response = client.get("/deal/", {"code": typed, "to": "play"})
    assert response.status_code == 302 and response.url == f"/play/{CODE}/"


def test_a_typed_code_can_open_its_leaderboard(client):
    response = client.get("/deal/", {"code": "hh1-n-aaaaaam", "to": "leaderboard"})
    assert response.status_code == 302 and response.url == f"/leaderboard/deal/{CODE}/"


@pytest.mark.parametrize(
    ("typed", "problem"),
    [("", "This field is required."), ("HH9-N-AAAAAAA", "A deal code looks like HH1-N-ABCDEFG")],
)
def test_a_bad_typed_code_is_explained_on_the_form(client, typed, problem, settings):
    settings.LANGUAGE_CODE = "en"
    response = client.get("/deal/", {"code": typed, "to": "play"})
    assert response.status_code == 200  # the form again: no error in the browser's console
    assert problem in response.content.decode()


def test_switching_the_language(client):
    response = client.post("/i18n/setlang/", {"language": "ms", "next": "/leaderboard/all-time/"})
    assert response.status_code == 302 and response.url == "/leaderboard/all-time/"
    content = client.get("/").content.decode()
    assert '<html lang="ms">' in content
    assert re.search(r'value="ms"[^>]*aria-pressed="true"', content)


def test_an_unknown_address_gets_the_sites_404_page(client):
    response = client.get("/no-such-page/")
    assert response.status_code == 404
    assert "Page not found" in response.content.decode()


def test_the_server_error_page_renders_without_a_request():
    assert "Something went wrong" in render_to_string("500.html")


def open_graph(content: str) -> dict[str, str]:
    return dict(re.findall(r'<meta property="(og:[a-z:]+)" content="([^"]*)">', content))


@pytest.mark.parametrize("url", ["/leaderboard/daily/", f"/leaderboard/daily/{YESTERDAY}/"])
def test_the_daily_boards_preview_as_a_card_with_the_empty_heart(client, url):
    tags = open_graph(client.get(url).content.decode())
    day = daily_today() if url == "/leaderboard/daily/" else YESTERDAY
    assert tags["og:title"] == f"Heart to Heart · Daily deal {day.isoformat()}"
    assert tags["og:description"].startswith("Everyone plays the same deal today")
    assert tags["og:image"] == "http://testserver/static/site/og-heart.png"
    assert tags["og:url"] == f"http://testserver{url}"
    image = (Path(settings.BASE_DIR) / "static/site/og-heart.png").read_bytes()
    width, height = int.from_bytes(image[16:20]), int.from_bytes(image[20:24])
    assert image[:8] == b"\x89PNG\r\n\x1a\n" and (width, height) == (1200, 630)


def test_the_daily_play_page_previews_as_a_card_and_other_deals_do_not(client, site):
    client.force_login(site)
    daily = client.get("/daily/").content.decode()
    assert open_graph(daily)["og:image"].endswith("/static/site/og-heart.png")
    assert open_graph(client.get(f"/play/{CODE}/").content.decode()) == {}
    assert open_graph(client.get("/").content.decode()) == {}


def test_the_descriptions_are_in_malay_too(client):
    client.cookies["django_language"] = "ms"
    content = client.get("/leaderboard/daily/").content.decode()
    assert "Semua orang bermain agihan yang sama hari ini" in open_graph(content)["og:description"]
    assert 'name="description" content="Heart to Heart: siapa' in content
