"""The end of a race in two phones: each racer's finish window (the winner's celebrates), in
both languages and both themes, then both press "Race again" and meet in one new room, while
the old room keeps its table and links to the rematch."""

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.axe import axe_violations
from tests.e2e.conftest import PHONE
from tests.e2e.deals import winnable_plan
from tests.e2e.test_race import ROOM_URL, race_of_two, racer_row

pytestmark = pytest.mark.e2e


def finish_window(page):
    return page.locator("#race-finish")


def shoot(pages, artifacts, language):
    """The finish windows at 360 px, light then dark."""
    for theme in ("light", "dark"):
        for name, page in pages.items():
            page.emulate_media(color_scheme=theme)
            page.wait_for_timeout(1000)  # the winner's hearts have landed
            page.screenshot(path=str(artifacts / f"race-finish-{name}-{language}-{theme}.png"))


def test_both_racers_see_the_finish_window_and_race_again_in_one_new_room(
    page_of, server, artifacts
):
    code, plan = winnable_plan(seed=5, longest=90)
    # axe-core is a script the site's policy would refuse
    ana, ben = page_of("ana", PHONE, bypass_csp=True), page_of("ben", PHONE, bypass_csp=True)
    lead, _trail = race_of_two(ana, ben, code)
    lead.play(plan)
    expect(finish_window(ana)).to_be_hidden()  # Ben still races
    ben.locator(".h2h-controls [data-action=resign]").click()
    ben.locator("#h2h-confirm [value=yes]").click()

    won, lost = finish_window(ana), finish_window(ben)
    expect(won).to_be_visible()
    expect(won).to_have_class(re.compile(r"\bwon\b"))
    expect(won.locator("h2")).to_have_text("You won the race!")
    expect(won.locator("[data-slot=place]")).to_have_text("1")
    moves = racer_row(ana, "Ana").locator("[data-slot=moves]").inner_text()
    expect(won.locator("[data-slot=moves]")).to_have_text(moves)
    expect(won.locator("[data-race-do=again]")).to_be_focused()
    expect(lost).to_be_visible()
    expect(lost.locator("h2")).to_have_text("Race over")
    expect(lost.locator("[data-slot=place]")).to_have_text("2")
    expect(lost.locator("[data-slot=winner]")).to_have_text("Ana cleared the heart first!")
    expect(lost.locator(".race-cheer")).to_be_hidden()
    assert axe_violations(ana, "#race-finish") == axe_violations(ben, "#race-finish") == []
    shoot({"winner": ana, "other": ben}, artifacts, "en")

    old_room = ana.url
    for page in (ana, ben):
        page.context.add_cookies([{"name": "django_language", "value": "ms", "url": server.url}])
        page.reload()
        expect(finish_window(page)).to_be_visible()  # the racers may still race again
        expect(finish_window(page).locator("[data-race-do=again]")).to_be_focused()
    expect(won.locator("h2")).to_have_text("Anda memenangi perlumbaan!")
    shoot({"winner": ana, "other": ben}, artifacts, "ms")

    lost.get_by_role("button", name="Berlumba lagi").click()
    ben.wait_for_url(lambda url: url != old_room and ROOM_URL.search(url) is not None)
    won.get_by_role("button", name="Berlumba lagi").click()
    ana.wait_for_url(ben.url)
    for page in (ana, ben):
        expect(racer_row(page, "Ana")).to_be_visible()
        expect(racer_row(page, "Ben")).to_be_visible()
        expect(page.locator("[data-race]")).to_have_attribute("data-status", "running")

    onlooker = page_of(None)
    onlooker.goto(old_room)
    rematch = ROOM_URL.search(ben.url).group(1)
    expect(onlooker.get_by_role("link", name=f"Rematch: {rematch}")).to_have_attribute(
        "href", f"/race/{rematch}/"
    )
    expect(onlooker.locator("[data-race]")).to_have_attribute("data-status", "finished")
    expect(onlooker.locator("tbody[data-racers] tr")).to_have_count(2)
    expect(finish_window(onlooker)).to_be_hidden()
