"""Coming back to /daily/ after the ranked game, in a real browser: the game as it ended, with
its end window open (rank now, percentile, streaks, the day's chart, par, the share card and
the countdown), no clock running, and practice a button away; in both languages and themes,
on a desktop and a phone."""

import re

import pytest
from playwright.sync_api import expect

from game import engine
from tests.e2e import deals
from tests.e2e.axe import axe_violations
from tests.e2e.conftest import DESKTOP, PHONE, create_users

pytestmark = pytest.mark.e2e

HEART_CELLS = re.compile("[🟥⬜]")


@pytest.fixture(scope="module")
def players(live_server_process):
    """Players whose ranked daily only this module plays: one in English, one in Malay."""
    create_users(live_server_process, ["tomas", "siti"])
    return {"en": "tomas", "ms": "siti"}


def look(page, artifacts, name: str) -> None:
    """Screenshots of the page as it opens, desktop and phone, light and dark; axe-core finds
    nothing in any of them."""
    for device, size in (("desktop", DESKTOP["viewport"]), ("phone", PHONE["viewport"])):
        page.set_viewport_size(size)
        for scheme in ("light", "dark"):
            page.emulate_media(color_scheme=scheme)
            page.wait_for_timeout(200)
            assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]
            page.screenshot(path=str(artifacts / f"daily-return-{name}-{device}-{scheme}.png"))
            assert axe_violations(page) == [], (device, scheme)


def still(page, selector: str, ms: int = 1500) -> str:
    """The text of `selector`, which must not change for `ms`: no clock runs there."""
    before = page.locator(selector).inner_text()
    page.wait_for_timeout(ms)
    assert page.locator(selector).inner_text() == before
    return before


def ticks(locator) -> None:
    before = locator.inner_text()
    assert re.fullmatch(r"\d\d:\d\d:\d\d", before)
    expect(locator).not_to_have_text(before, timeout=2500)


def test_back_on_the_daily_after_a_win_its_window_shows_the_result_and_no_clock_runs(
    open_page, players, artifacts
):
    board = open_page(players["en"], "/daily/", bypass_csp=True)
    board.start()
    code = board.code
    board.play(engine.solve(code, key=deals.DEAL_KEY))
    expect(board.page.locator("#h2h-win")).to_be_visible()
    time_won = board.page.locator("#h2h-win [data-slot=time]").inner_text()

    board.open("/daily/")  # back later, as from the home screen's icon
    page, win = board.page, board.page.locator("#h2h-win")
    expect(win).to_be_visible()
    expect(page.locator(".h2h-code")).to_contain_text(f"Ranked {code}")
    expect(win.locator("[data-slot=time]")).to_have_text(time_won)
    assert still(page, "[data-stat=time]") == time_won  # the ranked time, not a new clock
    expect(win.locator("[data-slot=rank]")).to_have_text(re.compile(r"^#\d+$"))
    expect(win.locator("[data-slot=rank-of]")).to_have_text(re.compile(r"^of \d+$"))
    expect(win.locator("[data-slot=par]")).to_have_text(re.compile(r"^par \d+$"))
    expect(win.locator("[data-slot=standing]")).to_have_text(
        re.compile(
            r"Faster than \d+\u00a0% of today's winners|The first winner of the day so far"
            r"|One of today's \d+ winners so far"  # the slowest winner so far
        )
    )
    expect(win.locator("[data-slot=streak-current]")).to_have_text("1")
    expect(win.locator("[data-slot=streak-best]")).to_have_text("1")
    expect(win.locator("svg[data-slot=chart] rect.h2h-chart-bar")).to_have_count(9)
    expect(win.locator("svg[data-slot=chart] rect.yours")).to_have_count(1)
    ticks(win.locator("[data-slot=countdown]"))
    share = win.locator("[data-share]").input_value()
    assert len(HEART_CELLS.findall(share)) == 25 and "⬜" not in share
    assert "Daily deal" in share and "par" not in share  # others still play the day's deal
    look(page, artifacts, "win-en")

    win.locator(".h2h-close button").click()
    expect(win).to_be_hidden()
    page.locator(".h2h-controls [data-action=show-result]").click()
    expect(win).to_be_visible()
    ticks(win.locator("[data-slot=countdown]"))  # counting again in the window opened again

    win.get_by_role("link", name="Play it again as practice").click()
    page.wait_for_url(f"**/play/{code}/")
    board.wait_ready()
    expect(page.locator(".h2h-code")).to_contain_text(f"Practice {code}")
    expect(page.locator("[data-stat=moves]")).to_have_text("0")
    expect(page.locator("[data-stat=time]")).not_to_have_text("0:00", timeout=2500)
    expect(page.locator("dialog[open]")).to_have_count(0)


def test_back_on_the_daily_in_malay_on_a_phone_after_resigning(open_page, players, artifacts):
    board = open_page(players["ms"], "/daily/", locale="ms-MY", device=PHONE, bypass_csp=True)
    board.start()
    code = board.code
    board.play(deals.plan_clearing(code, engine.solve(code, key=deals.DEAL_KEY), cards=2))
    page = board.page
    page.locator(".h2h-controls [data-action=resign]").click()
    page.locator("#h2h-confirm [value=yes]").click()
    expect(page.locator("#h2h-ended")).to_be_visible()

    board.open("/daily/")
    ended = page.locator("#h2h-ended")
    expect(ended).to_be_visible()
    expect(ended.locator("[data-slot=standing]")).to_have_text(re.compile(r"^Dikosongkan 2\b"))
    expect(ended.locator("[data-slot=streak-current]")).to_have_text("0")
    expect(ended.locator("svg rect.h2h-chart-bar.yours")).to_have_count(1)
    ticks(ended.locator("[data-slot=countdown]"))
    assert "Agihan harian" in ended.locator("[data-share]").input_value()
    practice = ended.get_by_role("link", name="Main semula sebagai latihan")
    expect(practice).to_have_attribute("href", f"/play/{code}/")
    look(page, artifacts, "ended-ms")
    ended.locator(".h2h-close button").click()
    expect(page.locator(".h2h-controls [data-action=show-result]")).to_have_text("Keputusan anda")
    board.shot(artifacts / "daily-return-ended-ms-closed.png")
