"""The theme switch: system, light or dark; kept on a player's profile for every device, and in a
visitor's browser; every page carries it on <html> with its theme-color."""

import re
from pathlib import Path

import pytest
from django.test import Client

from game.models import Profile

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
DARK_BAR = '<meta name="theme-color" content="#1f1b1d">'


@pytest.fixture(autouse=True)
def english(settings):
    settings.LANGUAGE_CODE = "en"


def html_theme(response) -> str:
    """The page's chosen theme, or "system" (<html> says none)."""
    html = re.search(r'<html lang="\w+"(?: data-theme="(\w+)")?>', response.content.decode())
    return html[1] or "system"


def choose(client, theme: str, next_page: str = "/leaderboard/daily/"):
    return client.post("/theme/", {"theme": theme, "next": next_page})


def test_a_page_follows_the_system_until_a_theme_is_chosen(client):
    page = client.get("/").content.decode()
    assert html_theme(client.get("/")) == "system"
    assert '<meta name="color-scheme" content="light dark">' in page
    assert 'content="#1f1b1d" media="(prefers-color-scheme: dark)"' in page


def test_a_visitors_browser_remembers_the_theme_and_its_bar_colour_follows(client):
    response = choose(client, "dark")
    assert response.status_code == 302 and response.url == "/leaderboard/daily/"
    assert response.cookies["h2h_theme"].value == "dark"
    page = client.get("/")
    assert html_theme(page) == "dark"
    assert DARK_BAR in page.content.decode() and "prefers-color-scheme" not in page.content.decode()
    assert '<button type="submit" name="theme" value="dark"\n' in page.content.decode()
    assert html_theme(Client().get("/")) == "system"  # another browser: its own


def test_a_players_theme_is_on_their_profile_and_wins_on_every_device(client, player):
    client.force_login(player)
    choose(client, "dark")
    assert Profile.objects.get(user=player).theme == "dark"
    elsewhere = Client()  # another device: no cookie of the choice
    elsewhere.force_login(player)
    assert html_theme(elsewhere.get("/")) == "dark"
    elsewhere.cookies["h2h_theme"] = "light"  # what that browser chose before logging in
    assert html_theme(elsewhere.get("/")) == "dark"
    choose(elsewhere, "system")
    assert html_theme(client.get("/")) == "system"


def test_the_account_page_offers_the_theme_with_the_players_choice(client, player):
    Profile.objects.filter(user=player).update(theme="light")
    client.force_login(player)
    page = client.get("/accounts/profile/").content.decode()
    assert re.search(r'<input type="radio" name="theme" value="light"[^>]* checked', page)
    assert 'action="/theme/"' in page and 'name="next" value="/accounts/profile/"' in page
    response = client.post("/theme/", {"theme": "dark", "next": "/accounts/profile/"})
    assert response.url == "/accounts/profile/"
    assert Profile.objects.get(user=player).theme == "dark"


def test_the_switch_speaks_malay(client):
    client.cookies["django_language"] = "ms"
    page = client.get("/").content.decode()
    assert "Tema:" in page
    assert re.findall(r">(?:Sistem|Cerah|Gelap)<", page) == [">Sistem<", ">Cerah<", ">Gelap<"]


def test_another_theme_is_refused_and_a_foreign_next_goes_home(client):
    assert choose(client, "neon").status_code == 400
    assert "h2h_theme" not in client.cookies
    assert client.get("/theme/").status_code == 405
    assert choose(client, "light", "https://elsewhere.example/").url == "/"
    client.cookies["h2h_theme"] = "neon"
    assert html_theme(client.get("/")) == "system"


def dark_palettes(path: str) -> list[str]:
    """The dark colours a stylesheet declares: for the system's dark, then for the player's."""
    css = (ROOT / path).read_text()
    blocks = re.findall(r'\[data-theme="(?:light|dark)"\]\)?[^{]*\{([^}]*)\}', css)
    return [
        " ".join(re.findall(r"--[\w-]+: [^;]+;|background: [^;]+;|color: #\w+;", b))
        for b in blocks
        if "--" in b or "background" in b
    ]


@pytest.mark.parametrize(
    "path", ["static/site/site.css", "static/board/board.css", "static/pages/pages.css"]
)
def test_the_players_dark_is_the_systems_dark(path):
    system_dark, chosen_dark = dark_palettes(path)
    assert system_dark == chosen_dark and system_dark
