"""A visitor in a real browser: plays without an account, signs up, and keeps the game."""

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.board import Board
from tests.e2e.conftest import PHONE

pytestmark = pytest.mark.e2e


@pytest.fixture
def visitor(server, browser):
    """A browser with no account, on a phone, speaking `locale`."""
    contexts, errors = [], []

    def open_visitor(locale="en-US"):
        context = browser.new_context(base_url=server.url, locale=locale, **PHONE)
        context.set_default_timeout(8000)
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        return Board(page, errors)

    yield open_visitor
    for context in contexts:
        context.close()
    assert errors == [], f"JavaScript errors on the page: {errors}"


def test_a_guest_plays_then_signs_up_and_the_game_is_kept(visitor, artifacts):
    board = visitor()
    board.page.goto("/play/new/")
    board.page.wait_for_url(re.compile(r"/play/HH1-N-[A-Z0-9]{7}/$"))
    board.wait_ready()
    code, board_url = board.code, board.page.url
    assert board.tap("stock") == "draw"
    moves = board.stat("moves")
    guest_note = board.page.locator(".h2h-guest")
    expect(guest_note).to_contain_text("You play as a guest")
    board.shot(artifacts / "guest-board-phone.png")

    guest_note.locator("a").click()
    page = board.page
    page.wait_for_url(re.compile(r"/accounts/signup/\?next="))
    page.fill("input[name=username]", "gil")
    page.fill("input[name=email]", "gil@example.org")
    page.fill("input[name=display_name]", "Gil")
    page.fill("input[name=password1]", "hearts-e2e-password")
    page.fill("input[name=password2]", "hearts-e2e-password")
    page.locator("main form [type=submit]").click()

    page.wait_for_url(board_url)
    board.wait_ready()
    assert board.code == code and board.stat("moves") == moves  # the same game, drawn card and all
    expect(page.locator(".h2h-guest")).to_have_count(0)
    expect(page.locator(".site-header")).to_contain_text("Gil")
    assert board.tap("stock") == "draw"  # and it plays on, as the account's


def test_a_guest_is_asked_to_sign_up_for_the_daily_in_malay(visitor):
    board = visitor(locale="ms-MY")
    board.page.goto("/daily/")
    expect(board.page.locator("main h1")).to_have_text("Agihan hari ini berperingkat")
    board.page.locator("main a[href='/play/new/']").click()
    board.wait_ready()
    expect(board.page.locator(".h2h-guest")).to_contain_text("tetamu")
