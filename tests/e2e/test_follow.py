"""Following in two browsers: Ben follows Cai from Cai's page, then watches his following board
of a deal; Dina's result of it shows nothing there, Cai's appears by itself, ranked 1."""

import pytest
from playwright.sync_api import expect

from tests.e2e.board import Board
from tests.e2e.conftest import PHONE

pytestmark = pytest.mark.e2e

CODE = "HH1-N-FOLLOWS"


def resign_a_game(page, code: str) -> None:
    board = Board(page, [])
    board.open(f"/play/{code}/")
    before = board.frames()
    page.locator(".h2h-controls [data-action=resign]").click()  # a normal game: no question
    board.answered(before)


def live_version(page) -> str:
    return page.locator("[data-live-ws]").get_attribute("data-live-version") or ""


def test_a_followed_players_result_shows_live_on_the_following_board(page_of, artifacts):
    ben = page_of("ben", PHONE)
    ben.goto("/players/Cai/")
    ben.get_by_role("button", name="Follow").click()
    expect(ben.get_by_role("button", name="Unfollow")).to_be_visible()
    expect(ben.locator("[data-followers]")).to_contain_text("1 follower")
    ben.screenshot(path=str(artifacts / "follow-player-phone.png"), full_page=True)

    ben.goto(f"/leaderboard/deal/{CODE}/?players=following")
    expect(ben.locator("[data-players] [aria-current=page]")).to_have_text("Following")
    expect(ben.locator("[data-live-empty]")).to_be_visible()
    expect(ben.locator("[data-live-ws]")).to_have_attribute("data-live-version", "0")

    resign_a_game(page_of("dina"), CODE)  # not followed: the version moves, no row shows
    expect(ben.locator("[data-live-ws]")).to_have_attribute("data-live-version", "1")
    expect(ben.locator("[data-live-empty]")).to_be_visible()

    resign_a_game(page_of("cai"), CODE)
    rows = ben.locator("tbody[data-live-rows] tr")
    expect(rows).to_have_count(1)
    expect(rows.first.locator(".who")).to_have_text("Cai")
    expect(rows.first.locator(".rank")).to_have_text("1")  # among whom Ben follows
    assert live_version(ben) == "2"
    ben.screenshot(path=str(artifacts / "follow-board-phone.png"), full_page=True)
    assert ben.evaluate("document.documentElement.scrollWidth") <= 360

    # The everyone view has both, Dina first by time, and also fits the phone.
    ben.goto(f"/leaderboard/deal/{CODE}/")
    expect(ben.locator("tbody[data-live-rows] tr")).to_have_count(2)
    assert ben.evaluate("document.documentElement.scrollWidth") <= 360
