"""axe-core on the board in every state a player meets it: the ranked daily's start screen,
mid-game, a selection, the end window with the day's chart, the deadlock window and a race; each
at 1280 px and 360 px, light and dark, in English and in Malay. One visit per language walks
through the states; each state is checked in all four looks, with a screenshot of each."""

import re

import pytest
from playwright.sync_api import expect

from game import engine
from tests.e2e import deals
from tests.e2e.axe import axe_violations
from tests.e2e.board import Board
from tests.e2e.conftest import DESKTOP, PHONE, create_users

pytestmark = pytest.mark.e2e

SIZES = {"desktop": DESKTOP["viewport"], "phone": PHONE["viewport"]}
# Each language's player (whose daily deal only this module plays) and their rival in a race.
PLAYERS = {"en": ("axel", "rafi"), "ms": ("amira", "rina")}
LOCALES = {"en": "en-US", "ms": "ms-MY"}


@pytest.fixture(scope="module")
def players(live_server_process):
    create_users(live_server_process, [name for pair in PLAYERS.values() for name in pair])
    return PLAYERS


def no_violations(page, artifacts, name: str) -> None:
    """axe-core finds nothing on the page as it is now, in any of the four looks."""
    found = {}
    for device, size in SIZES.items():
        page.set_viewport_size(size)
        for scheme in ("light", "dark"):
            page.emulate_media(color_scheme=scheme)
            page.wait_for_timeout(200)  # the cards' colour transitions end
            page.screenshot(path=artifacts / f"axe-{name}-{device}-{scheme}.png")
            violations = axe_violations(page)
            if violations:
                found[f"{device} {scheme}"] = violations
    assert not found, "\n".join(f"{name}, {look}: {v}" for look, vs in found.items() for v in vs)


def through_the_daily(board, artifacts, language: str) -> None:
    page = board.page
    expect(board.start_screen).to_be_visible()
    no_violations(page, artifacts, f"{language}-start")
    board.start()
    plan = engine.solve(board.code, key=deals.DEAL_KEY)
    board.play(deals.plan_clearing(board.code, plan, cards=2))
    page.wait_for_timeout(350)  # the last pair flies off
    no_violations(page, artifacts, f"{language}-mid-game")
    free = [t for t in board.with_class("free") if t != "waste"]
    assert board.tap(free[0]) == "selected"  # placement help darkens the cards around it
    no_violations(page, artifacts, f"{language}-selection")
    page.locator(".h2h-controls [data-action=resign]").click()
    page.locator("#h2h-confirm [value=yes]").click()
    expect(page.locator("#h2h-ended svg rect")).to_have_count(9)
    no_violations(page, artifacts, f"{language}-end")


def to_a_deadlock(board, artifacts, language: str) -> None:
    code, taps = deals.deadlock_path(seed=36)
    board.open(f"/play/{code}/")
    board.play(taps)
    expect(board.page.locator("#h2h-deadlock")).to_be_visible()
    no_violations(board.page, artifacts, f"{language}-deadlock")


def into_a_race(page, rival, artifacts, language: str) -> None:
    page.goto("/race/")
    page.locator("form:has(#race-code) [type=submit]").click()
    page.wait_for_url(re.compile(r"/race/[A-Z0-9]{6}/$"))
    rival.goto(page.url)
    rival.locator("[data-race-do=join]").click()
    expect(page.locator("tbody[data-racers] tr")).to_have_count(2)
    no_violations(page, artifacts, f"{language}-race-lobby")
    page.locator("[data-race-do=ready]").click()
    rival.locator("[data-race-do=ready]").click()
    board = Board(page, [])
    board.wait_ready()
    assert board.tap("stock") == "draw"
    no_violations(page, artifacts, f"{language}-race")


@pytest.mark.parametrize("language", ["en", "ms"])
def test_axe_finds_no_violation_on_the_board_in_any_state(
    open_page, page_of, server, players, artifacts, language
):
    player, rival_name = players[language]
    board = open_page(player, "/daily/", locale=LOCALES[language], bypass_csp=True)
    assert board.page.locator("html").get_attribute("lang") == language
    through_the_daily(board, artifacts, language)
    to_a_deadlock(board, artifacts, language)
    rival = page_of(rival_name)
    into_a_race(board.page, rival, artifacts, language)
