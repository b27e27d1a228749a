"""The end windows in a real browser: resigning from the deadlock window ends the game and
shows its summary; a window opens at its top, over the page as it was."""

import pytest
from playwright.sync_api import expect

from tests.e2e import deals
from tests.e2e.conftest import DESKTOP, PHONE, create_users

pytestmark = pytest.mark.e2e

# A landscape phone and a short desktop window: an end window taller than the screen.
SHORT_SCREENS = {
    "landscape-phone": {**PHONE, "viewport": {"width": 740, "height": 360}},
    "short-desktop": {"viewport": {"width": 1280, "height": 600}},
}


@pytest.fixture(scope="module")
def players(live_server_process):
    """Players whose games and daily deal only this module plays."""
    names = ["vera", "wanda", "xena", "yusuf"]
    create_users(live_server_process, names)
    return names


@pytest.mark.parametrize(
    ("player", "locale", "device", "scheme", "seed"),
    [(0, "en-US", DESKTOP, "light", 57), (1, "ms-MY", PHONE, "dark", 49)],
    ids=["desktop-en-light", "phone-ms-dark"],
)
def test_resigning_from_the_deadlock_window_closes_it_and_shows_the_summary(
    open_page, players, artifacts, player, locale, device, scheme, seed
):
    code, taps = deals.deadlock_path(seed=seed)  # a deal that starts playable, then sticks
    assert deals.playable(deals.new_game(code))
    board = open_page(players[player], f"/play/{code}/", locale=locale, device=device)
    page = board.page
    page.emulate_media(color_scheme=scheme)
    board.play(taps)
    stuck = page.locator("#h2h-deadlock")
    expect(stuck).to_be_visible()
    moves = board.stat("moves")
    before = board.frames()
    stuck.locator("[data-action=resign]").click()
    board.answered(before)
    expect(stuck).to_be_hidden()
    ended = page.locator("#h2h-ended")
    expect(ended).to_be_visible()
    expect(ended.locator("[data-slot=moves]")).to_have_text(moves)
    for action in ("undo", "resign"):  # nothing left to undo or resign, wherever it is offered
        for button in page.locator(f"[data-action={action}]").all():
            expect(button).to_be_disabled()
    board.shot(artifacts / f"deadlock-resigned-{'phone' if device is PHONE else 'desktop'}.png")


# Where the open window stands: the page's scroll, the window's own, its title's top and
# whether the focus is inside it.
WINDOW_PLACE = """() => { const w = document.querySelector('dialog[open]');
  return { page: window.scrollY, window: w.scrollTop,
           title: w.querySelector('h2').getBoundingClientRect().top,
           focused: w.contains(document.activeElement) }; }"""


@pytest.mark.parametrize("screen", SHORT_SCREENS)
def test_an_end_window_opens_at_its_top_and_leaves_the_page_where_it_was(
    open_page, players, artifacts, screen
):
    player = players[2] if screen == "landscape-phone" else players[3]
    board = open_page(player, "/daily/", locale="ms-MY", device=SHORT_SCREENS[screen])
    page = board.page
    board.start()
    board.tap("stock")
    page.locator(".h2h-controls [data-action=resign]").click()
    page.evaluate("window.scrollTo(0, 30)")  # a page scrolled a little under the question
    scrolled = page.evaluate("window.scrollY")
    assert scrolled > 0
    before = board.frames()
    page.locator("#h2h-confirm button[value=yes]").click()
    board.answered(before)
    expect(page.locator("#h2h-ended")).to_be_visible()
    expect(page.locator("#h2h-ended [data-slot=countdown]")).not_to_be_empty()
    place = page.evaluate(WINDOW_PLACE)
    assert place == {"page": scrolled, "window": 0, "title": place["title"], "focused": True}
    assert 0 <= place["title"] < 60, place  # the title "Permainan tamat" shows at the top
    page.screenshot(path=str(artifacts / f"ended-window-{screen}-ms.png"))
