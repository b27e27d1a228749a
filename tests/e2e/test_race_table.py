"""The race page in a real browser: the racers' table shows every column (place, player,
state, hearts left, score, moves, time) inside its own box, at 1280 px and at 360 px, in English
and in Malay: in the lobby, during the race beside the board (below it on a phone), and once the
race is over. Beside the board Malay's headers alone were wider than the table, so the table cut
off after "Skor" and the columns after the score were hidden in both languages."""

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.board import Board, log_in
from tests.e2e.conftest import DESKTOP, PASSWORD, PHONE, create_users

pytestmark = pytest.mark.e2e

# Each language's two racers: names no other test uses.
PLAYERS = {"en": ("ulla", "quentin"), "ms": ("zainal", "noor")}
LOCALES = {"en": "en-US", "ms": "ms-MY"}
SIZES = {"desktop": DESKTOP["viewport"], "phone": PHONE["viewport"]}
COLUMNS = ("place", "name", "state", "left", "score", "moves", "time")

# Each racer's cells of COLUMNS: its text if it shows inside the table's scroll box, else false;
# and whether that box has anything out of sight to scroll to.
CELLS = """(wrap, columns) => {
  const box = wrap.getBoundingClientRect();
  const inside = (cell) => {
    const r = cell.getBoundingClientRect();
    const shown = r.width > 0 && r.height > 0 && getComputedStyle(cell).visibility === "visible";
    return shown && r.left >= box.left - 0.5 && r.right <= box.right + 0.5;
  };
  const rows = [...wrap.querySelectorAll("tbody[data-racers] tr")].map((tr) =>
    Object.fromEntries(columns.map((slot) => {
      const cell = tr.querySelector(`[data-slot=${slot}]`).closest("td");
      return [slot, inside(cell) ? cell.innerText.trim() : false];
    })));
  return { rows, scrolls: wrap.scrollWidth > wrap.clientWidth };
}"""


@pytest.fixture(scope="module")
def racers(live_server_process):
    create_users(live_server_process, [name for pair in PLAYERS.values() for name in pair])
    return PLAYERS


@pytest.fixture
def racer_page(server, browser):
    """racer_page(user, locale) -> a logged-in page of that player, in that language."""
    contexts, errors = [], []

    def racer_page(user, locale):
        context = browser.new_context(base_url=server.url, locale=locale, **DESKTOP)
        context.set_default_timeout(10_000)
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        log_in(page, user, PASSWORD)
        return page

    yield racer_page
    for context in contexts:
        context.close()
    assert errors == [], f"JavaScript errors on the page: {errors}"


def every_column_shows(page, artifacts, name: str) -> None:
    """At both widths each racer's seven cells show inside the table's box, none scrolled away."""
    for device, size in SIZES.items():
        page.set_viewport_size(size)
        page.wait_for_timeout(250)
        page.screenshot(path=artifacts / f"race-table-{name}-{device}.png", full_page=True)
        seen = page.eval_on_selector(".race-table .table-wrap", CELLS, list(COLUMNS))
        assert not seen["scrolls"], f"{name} at {device}: the table scrolls sideways"
        for row in seen["rows"]:
            hidden = [column for column, text in row.items() if text is False]
            assert not hidden, f"{name} at {device}: {hidden} not shown in {row}"
    page.set_viewport_size(DESKTOP["viewport"])


def resign(page) -> None:
    page.locator(".h2h-controls [data-action=resign]").click()
    page.locator("#h2h-confirm [value=yes]").click()


@pytest.mark.parametrize("language", ["en", "ms"])
def test_the_racers_table_shows_every_column_on_a_desktop_and_a_phone(
    racer_page, racers, artifacts, language
):
    host, guest = (racer_page(name, LOCALES[language]) for name in racers[language])
    host.goto("/race/")
    expect(host.locator("h1")).to_have_text("Heart to Heart")
    host.locator("form:has(#race-code) [type=submit]").click()
    host.wait_for_url(re.compile(r"/race/[A-Z0-9]{6}/$"))
    guest.goto(host.url)
    guest.locator("[data-race-do=join]").click()
    expect(host.locator("tbody[data-racers] tr")).to_have_count(2)
    every_column_shows(host, artifacts, f"{language}-lobby")

    host.locator("[data-race-do=ready]").click()
    guest.locator("[data-race-do=ready]").click()
    board = Board(host, [])
    board.wait_ready()
    assert board.tap("stock") == "draw"
    expect(host.locator("[data-race-board]")).to_be_visible()
    every_column_shows(host, artifacts, f"{language}-racing")

    for page in (host, guest):
        Board(page, []).wait_ready()
        resign(page)
    expect(host.locator("[data-race]")).to_have_attribute("data-status", "finished")
    expect(host.locator("tbody[data-racers] [data-slot=time]").first).to_have_text(
        re.compile(r"\d+:\d\d")
    )
    every_column_shows(host, artifacts, f"{language}-finished")
