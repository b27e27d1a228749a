"""The end of a ranked daily in a real browser: par, standing, streaks, the day's chart, the
countdown to the next deal and the share card; in both languages and themes, on a phone and a
desktop, with no accessibility violation that axe-core finds."""

import re

import pytest
from playwright.sync_api import expect

from game import engine
from tests.e2e import deals
from tests.e2e.axe import axe_violations
from tests.e2e.conftest import DESKTOP, PHONE, create_users

pytestmark = pytest.mark.e2e

HEART_CELLS = re.compile("[🟥⬜]")
# The chart's bars as the server sends them: eight spans of minutes to win, then "not cleared".
BAR_EDGES_MIN = (0, 2, 3, 4, 5, 7, 10, 15, None)


@pytest.fixture(scope="module")
def kofi(live_server_process):
    """A player whose daily deal only this module plays."""
    create_users(live_server_process, ["kofi"])
    return "kofi"


def fits(page, width: int) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    window = page.locator("dialog[open]")
    assert window.evaluate("w => w.scrollWidth <= w.clientWidth")
    box = window.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= width


def look(page, artifacts, name: str) -> None:
    """Screenshots of the open window: desktop and phone, light and dark."""
    for device, size in (("desktop", DESKTOP["viewport"]), ("phone", PHONE["viewport"])):
        page.set_viewport_size(size)
        for scheme in ("light", "dark"):
            page.emulate_media(color_scheme=scheme)
            page.wait_for_timeout(200)
            fits(page, size["width"])
            page.screenshot(path=str(artifacts / f"{name}-{device}-{scheme}.png"))
            assert axe_violations(page, "dialog[open]") == [], (device, scheme)


def test_winning_the_daily_opens_par_standing_streak_chart_countdown_and_share(
    open_page, artifacts
):
    board = open_page("wren", "/daily/", bypass_csp=True)
    board.start()
    plan = engine.solve(board.code, key=deals.DEAL_KEY)
    board.play(plan)
    page, win = board.page, board.page.locator("#h2h-win")
    expect(win).to_be_visible()
    expect(win).to_contain_text(re.compile(r"par \d+"))
    expect(win.locator("[data-slot=standing]")).to_have_text(
        re.compile(
            r"Faster than \d+\u00a0% of today's winners|The first winner of the day so far"
            r"|One of today's \d+ winners so far"  # the slowest winner so far
        )
    )
    expect(win.locator("[data-slot=streak-current]")).to_have_text("1")
    expect(win.locator("[data-slot=streak-best]")).to_have_text("1")
    chart = win.locator("svg[data-slot=chart]")
    expect(chart).to_have_attribute("role", "img")
    expect(chart).to_have_attribute("aria-label", re.compile(r"Yours: <2 min\.$"))
    expect(chart.locator("rect.h2h-chart-bar")).to_have_count(9)
    expect(chart.locator("rect.h2h-chart-bar.yours")).to_have_count(1)
    countdown = win.locator("[data-slot=countdown]")
    before = countdown.inner_text()
    assert re.fullmatch(r"\d\d:\d\d:\d\d", before)
    expect(countdown).not_to_have_text(before, timeout=2500)  # it ticks
    expect(win.locator("[data-slot=next-at]")).to_have_text(re.compile(r"\(\w+ \d\d:\d\d\)"))
    share = win.locator("[data-share]").input_value()
    assert len(HEART_CELLS.findall(share)) == 25 and "⬜" not in share
    assert not re.search(r"Rank|#|\bHH1-", share) and "/leaderboard/daily/" in share
    assert re.search(r"\d+ moves", share) and "par" not in share  # others still play the day
    win.locator("[data-action=copy-share]").click()
    expect(win.locator("[data-action=copy-share] [data-slot=copied]")).to_have_text("Copied")
    look(page, artifacts, "finish-win-en")


def test_resigning_the_daily_in_malay_shows_what_it_cleared_and_a_share_of_it(open_page, artifacts):
    board = open_page("yara", "/daily/", locale="ms-MY", device=PHONE, bypass_csp=True)
    board.start()
    plan = engine.solve(board.code, key=deals.DEAL_KEY)
    board.play(deals.plan_clearing(board.code, plan, cards=2))
    page = board.page
    page.locator(".h2h-controls [data-action=resign]").click()
    page.locator("#h2h-confirm [value=yes]").click()
    ended = page.locator("#h2h-ended")
    expect(ended).to_be_visible()
    expect(ended).to_contain_text(re.compile(r"par \d+"))
    expect(ended.locator("[data-slot=standing]")).to_have_text(re.compile(r"^Dikosongkan \d+"))
    expect(ended.locator("svg rect.h2h-chart-bar.yours")).to_have_count(1)
    expect(ended.locator("[data-slot=streak-current]")).to_have_text("0")
    share = ended.locator("[data-share]").input_value()
    assert len(HEART_CELLS.findall(share)) == 25 and "⬜" in share and "🟥" in share
    assert "Agihan harian" in share
    look(page, artifacts, "finish-ended-ms")


def test_any_other_deal_ends_with_time_moves_and_par_and_no_day(open_page):
    code, _ = deals.winnable_plan(seed=21)
    board = open_page("wren", f"/play/{code}/", device=PHONE, color_scheme="dark", bypass_csp=True)
    assert board.tap("stock") == "draw"
    board.page.locator(".h2h-controls [data-action=resign]").click()
    ended = board.page.locator("#h2h-ended")
    expect(ended).to_be_visible()
    expect(ended.locator("[data-slot=moves]")).to_have_text("1")
    expect(ended.locator("[data-slot=day]")).to_be_hidden()
    expect(ended).to_contain_text(re.compile(r"par \d+"))  # its par comes after the end
    share = ended.locator("[data-share]").input_value()
    assert share.startswith(f"Heart to Heart · {code}\n") and f"/play/{code}/" in share
    assert axe_violations(board.page, "dialog[open]") == []


def a_day(counts: list[int], you: int) -> dict:
    """A day's distribution (docs/protocol.md) with these counts per bar."""
    spans = zip(BAR_EDGES_MIN, BAR_EDGES_MIN[1:], strict=False)
    bars = [
        {"won": True, "from_ms": start * 60_000, "to_ms": end and end * 60_000, "count": n}
        for (start, end), n in zip(spans, counts, strict=False)
    ]
    bars.append({"won": False, "from_ms": None, "to_ms": None, "count": counts[-1]})
    return {"bars": bars, "you": you}


# Drawn into the open window's chart, if given a day: the chart's scale across and down, and
# each bar's rendered width and place and the width the chart's layout gives it, in pixels.
BARS_AS_DRAWN = """async (day) => {
    const base = document.querySelector("script[type=module][src*='pages/play.js']").src;
    const { drawChart } = await import(new URL("../windows/summary.js", base));
    const { chartBars } = await import(new URL("../windows/finish.js", base));
    const svg = document.querySelector("dialog[open] svg[data-slot=chart]");
    if (day) drawChart(svg, day);
    const [box, units] = [svg.getBoundingClientRect(), svg.viewBox.baseVal];
    const scale = box.width / units.width;
    const layout = day ? chartBars(day, units.width, units.height) : null;
    const bars = [...svg.querySelectorAll("rect")].map((rect, i) => {
        const drawn = rect.getBoundingClientRect();
        const width = layout ? layout[i].width : rect.width.baseVal.value;
        return { left: drawn.left - box.left, width: drawn.width, laid_out: width * scale };
    });
    return { across: scale, down: box.height / units.height, bars };
}"""


def bars_as_laid_out(page, day=None) -> None:
    """Each bar of the open window's chart is as wide as the chart lays it out, side by side,
    and the chart is scaled evenly, so its numbers keep their shape."""
    drawn = page.evaluate(BARS_AS_DRAWN, day)
    assert drawn["across"] == pytest.approx(drawn["down"], rel=0.01)
    bars = drawn["bars"]
    assert len(bars) == len(BAR_EDGES_MIN)
    for bar in bars:
        assert bar["width"] == pytest.approx(bar["laid_out"], abs=0.5), bars
    for bar, right in zip(bars, bars[1:], strict=False):
        assert bar["left"] + bar["width"] <= right["left"] + 0.5, bars


DAYS = {
    "one bar": a_day([0, 0, 0, 0, 0, 0, 0, 0, 1], you=8),
    "two bars": a_day([0, 3, 0, 0, 0, 0, 0, 0, 1], you=8),
    "six bars": a_day([1, 4, 9, 0, 2, 0, 0, 1, 3], you=2),
}


def test_each_bar_of_the_days_chart_is_as_wide_as_its_layout(open_page, kofi, artifacts):
    board = open_page(kofi, "/daily/")
    board.start()
    page = board.page
    page.locator(".h2h-controls [data-action=resign]").click()
    page.locator("#h2h-confirm [value=yes]").click()
    expect(page.locator("#h2h-ended svg rect")).to_have_count(len(BAR_EDGES_MIN))
    for device, size in (("desktop", DESKTOP["viewport"]), ("phone", PHONE["viewport"])):
        page.set_viewport_size(size)
        bars_as_laid_out(page)  # the day as it is: kofi's resignation alone
        for name, day in DAYS.items():
            bars_as_laid_out(page, day)
            chart = page.locator("#h2h-ended .h2h-chart")
            chart.screenshot(path=artifacts / f"chart-{name.replace(' ', '-')}-{device}.png")
