"""The theme switch in a real browser: system, light or dark, from the footer or the account
page; a visitor's browser remembers it, a player's profile carries it to a new device."""

import re

import pytest
from playwright.sync_api import expect

from tests.e2e import deals
from tests.e2e.conftest import DESKTOP, PHONE, create_users

pytestmark = pytest.mark.e2e

PAGE = {"light": "rgb(250, 246, 243)", "dark": "rgb(21, 18, 20)"}  # the page's --bg
FELT = {"light": "#fffaf7", "dark": "#2a2226"}  # the board's --felt-1
BAR = {"light": "#ffffff", "dark": "#1f1b1d"}  # the browser's bar (theme-color)


@pytest.fixture(scope="module")
def player(live_server_process):
    create_users(live_server_process, ["tova"])
    return "tova"


def looks(page, theme: str) -> None:
    """The page is drawn in `theme`, and says so to the browser's bar."""
    expect(page.locator("html")).to_have_attribute("data-theme", theme)
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") == PAGE[theme]
    bars = page.eval_on_selector_all("meta[name=theme-color]", "ms => ms.map(m => m.content)")
    assert bars == [BAR[theme]]


def board_looks(page, theme: str) -> None:
    felt = "getComputedStyle(document.getElementById('board')).getPropertyValue('--felt-1')"
    assert page.evaluate(felt).strip() == FELT[theme]


def switch(page, label: str) -> None:
    page.locator(".theme-switch button", has_text=label).click()
    page.wait_for_load_state()


def test_a_visitor_switches_the_theme_and_the_browser_remembers_it(page_of, artifacts):
    page = page_of(None, DESKTOP)
    page.emulate_media(color_scheme="light")
    page.goto("/")
    expect(page.locator("html")).not_to_have_attribute("data-theme", re.compile("."))
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") == PAGE["light"]
    switch(page, "Dark")  # the system says light; the choice wins
    looks(page, "dark")
    expect(page.locator(".theme-switch [aria-pressed=true]")).to_have_text("Dark")
    page.screenshot(path=str(artifacts / "theme-dark-desktop-en.png"), full_page=True)
    page.goto(f"/play/{deals.code_where(deals.playable, seed=71)}/")
    page.wait_for_selector("#board[data-ready]")
    looks(page, "dark")
    board_looks(page, "dark")
    page.reload()
    page.wait_for_selector("#board[data-ready]")
    board_looks(page, "dark")
    page.emulate_media(color_scheme="dark")
    switch(page, "Light")  # the system says dark; the choice wins
    page.wait_for_selector("#board[data-ready]")
    looks(page, "light")
    board_looks(page, "light")
    page.screenshot(path=str(artifacts / "theme-light-over-dark-system-desktop-en.png"))
    switch(page, "System")
    page.wait_for_selector("#board[data-ready]")
    expect(page.locator("html")).not_to_have_attribute("data-theme", re.compile("."))
    board_looks(page, "dark")


def test_a_players_theme_from_the_account_page_follows_them_to_a_new_device(
    page_of, server, player, artifacts
):
    phone = page_of(player, PHONE)
    phone.context.add_cookies([{"name": "django_language", "value": "ms", "url": server.url}])
    phone.emulate_media(color_scheme="light")
    phone.goto("/accounts/profile/")
    phone.get_by_label("Gelap").check()
    phone.get_by_role("button", name="Simpan tema").click()
    phone.wait_for_load_state()
    looks(phone, "dark")
    expect(phone.get_by_label("Gelap")).to_be_checked()
    phone.screenshot(path=str(artifacts / "theme-profile-phone-ms-dark.png"), full_page=True)
    desktop = page_of(player, DESKTOP)  # a new browser, logged in: no cookie of the choice
    desktop.emulate_media(color_scheme="light")
    desktop.goto(f"/play/{deals.code_where(deals.playable, seed=72)}/")
    desktop.wait_for_selector("#board[data-ready]")
    looks(desktop, "dark")
    board_looks(desktop, "dark")
    desktop.screenshot(path=str(artifacts / "theme-dark-board-desktop-en.png"))
    switch(desktop, "Light")
    phone.reload()
    looks(phone, "light")
    expect(phone.locator(".theme-switch [aria-pressed=true]")).to_have_text("Cerah")
    phone.screenshot(path=str(artifacts / "theme-profile-phone-ms-light.png"), full_page=True)
