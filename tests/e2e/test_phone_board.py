"""A 360 × 740 phone shows the whole board unscrolled, in both languages, under a header of two
short lines: the info bar, the heart, the stock and the waste, Undo and Resign."""

import pytest

from tests.e2e import deals
from tests.e2e.conftest import PHONE, create_users

pytestmark = pytest.mark.e2e

HEIGHT = PHONE["viewport"]["height"]
# The brand and the account, then the main links: two lines of about 30 px.
TWO_LINES_PX = 72
BOARD = {
    "info bar": ".h2h-bar",
    "heart": ".h2h-heart [data-target='1']",
    "tip": ".h2h-heart [data-target='25']",
    "stock": ".h2h-heart [data-target=stock]",
    "waste": ".h2h-heart [data-target=waste]",
    "Undo": ".h2h-controls [data-action=undo]",
    "Resign": ".h2h-controls [data-action=resign]",
}
EDGES = "n => { const b = n.getBoundingClientRect(); return [b.top, b.bottom]; }"


@pytest.fixture(scope="module")
def player(live_server_process):
    create_users(live_server_process, ["marguerite"])  # a name the header cuts short
    return "marguerite"


def assert_board_fits(page) -> None:
    header = page.locator(".site-header").evaluate(EDGES)
    assert header[1] <= TWO_LINES_PX, f"the header is {header[1]} px tall"
    lines = {
        round(top)
        for top in page.eval_on_selector_all(
            ".site-nav a", "ls => ls.map(l => l.getBoundingClientRect().top)"
        )
    }
    assert len(lines) == 1, "the main links take one line"
    for name, selector in BOARD.items():
        top, bottom = page.locator(selector).evaluate(EDGES)
        assert header[1] <= top and bottom <= HEIGHT, (name, top, bottom)
    assert page.evaluate("[window.scrollY, document.documentElement.scrollWidth]") == [0, 360]


@pytest.mark.parametrize("locale", ["en-US", "ms-MY"])
def test_a_players_board_fits_a_phone_unscrolled(open_page, player, artifacts, locale):
    board = open_page(player, "/daily/", locale=locale, device=PHONE)
    board.start()
    assert_board_fits(board.page)
    board.shot(artifacts / f"board-fits-phone-{locale[:2]}.png")
    board.open(f"/play/{deals.code_where(deals.playable, seed=61)}/")
    assert_board_fits(board.page)


@pytest.mark.parametrize("language", ["en", "ms"])
def test_a_visitors_board_fits_a_phone_unscrolled(page_of, server, artifacts, language):
    page = page_of(None, PHONE)
    page.context.add_cookies([{"name": "django_language", "value": language, "url": server.url}])
    page.goto(f"/play/{deals.code_where(deals.playable, seed=62)}/")
    page.wait_for_selector("#board[data-ready]")
    assert_board_fits(page)
    page.screenshot(path=str(artifacts / f"board-fits-phone-visitor-{language}.png"))
