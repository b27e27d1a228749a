"""Heart to heart in two browsers: a race room from lobby to result table, both racers playing
the same deal to the end, while an onlooker's leaderboard of that deal updates by itself."""

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.board import Board
from tests.e2e.conftest import PHONE
from tests.e2e.deals import winnable_plan

pytestmark = pytest.mark.e2e


def racer_row(page, name):
    return page.locator("tbody[data-racers] tr", has_text=name)


def page_top(page, selector: str) -> float:
    """Where the element starts on the page, whatever the page's scroll."""
    return page.eval_on_selector(
        selector, "node => node.getBoundingClientRect().top + window.scrollY"
    )


ROOM_URL = re.compile(r"/race/([A-Z0-9]{6})/$")


def race_of_two(ana, ben, code):
    """Ana opens a room of `code`, Ben joins, both get ready and the countdown shows: their
    boards open at the start."""
    ana.goto("/race/")
    ana.fill("#race-code", code)
    ana.get_by_role("button", name="Open a room").click()
    ana.wait_for_url(ROOM_URL)
    ben.goto(ana.url)
    ben.locator("[data-race-do=join]").click()
    expect(racer_row(ana, "Ben")).to_be_visible()
    ana.locator("[data-race-do=ready]").click()
    expect(racer_row(ben, "Ana").locator(".badge")).to_have_text("ready")
    ben.locator("[data-race-do=ready]").click()
    expect(ana.locator("[data-race-countdown]")).to_be_visible()
    boards = Board(ana, []), Board(ben, [])
    for board in boards:
        board.wait_ready()
    return boards


def test_two_players_race_the_same_deal_to_the_end(page_of, artifacts):
    code, plan = winnable_plan(seed=5, longest=90)
    onlooker = page_of(None)
    onlooker.goto(f"/leaderboard/deal/{code}/")
    expect(onlooker.locator("[data-live-empty]")).to_be_visible()

    ana, ben = page_of("ana"), page_of("ben", PHONE)
    boards = race_of_two(ana, ben, code)
    assert [board.code for board in boards] == [code, code]
    # Ana plays the plan; Ben keeps two taps behind every three of hers.
    lead, trail = boards
    behind = 0
    for i, action in enumerate(plan):
        lead.tap(action)
        if i % 3:
            trail.tap(plan[behind])
            behind += 1
        if i == len(plan) // 2:
            left = int(racer_row(ben, "Ana").locator("[data-slot=left]").inner_text())
            assert left < 25  # Ben sees Ana's heart shrink as she plays
            board_top = page_top(ben, "#board")
    expect(racer_row(ben, "Ana").locator(".badge")).to_have_text("cleared")
    expect(ben.locator("[data-race-status]")).to_contain_text("Ana cleared the heart first!")
    # The news above Ben's board on his phone does not move the cards under his finger.
    assert page_top(ben, "#board") == board_top
    ana.wait_for_timeout(400)  # let the last pair fly off
    ana.screenshot(path=str(artifacts / "race-desktop.png"))
    expect(onlooker.locator("tbody[data-live-rows] tr")).to_have_count(1)

    for action in plan[behind:]:
        trail.tap(action)
    for page in (ana, ben):
        expect(page.locator("[data-race]")).to_have_attribute("data-status", "finished")
    names = ana.locator("tbody[data-racers] tr .who").all_inner_texts()
    assert [name.split(" ")[0] for name in names] == ["Ana", "Ben"]
    expect(racer_row(ana, "Ben").locator(".badge")).to_have_text("cleared")
    ben.screenshot(path=str(artifacts / "race-phone.png"), full_page=True)

    # The onlooker's board took both results without a reload, the newest highlighted.
    rows = onlooker.locator("tbody[data-live-rows] tr")
    expect(rows).to_have_count(2)
    expect(onlooker.locator("tr.fresh .who")).to_have_text("Ben")
    assert rows.locator(".who").all_inner_texts() == ["Ana", "Ben"]


class RoomSocketProxy:
    """Pass the race room's socket through, and drop it on demand as a lost connection does
    (the page then reconnects through the proxy)."""

    def __init__(self, page):
        self.sockets = []
        page.route_web_socket(re.compile(r"/ws/race/"), self.route)

    def route(self, ws):
        server = ws.connect_to_server()
        ws.on_message(server.send)
        server.on_message(ws.send)
        self.sockets.append(ws)

    def drop(self):
        self.sockets[-1].close(code=4000, reason="test")


def test_the_room_buttons_wait_while_the_room_socket_is_down(page_of):
    ana, ben = page_of("ana"), page_of("ben", PHONE)
    ana.goto("/race/")
    ana.get_by_role("button", name="Open a room").click()
    ana.wait_for_url(re.compile(r"/race/[A-Z0-9]{6}/$"))
    proxy = RoomSocketProxy(ben)
    ben.goto(ana.url)
    join = ben.locator("[data-race-do=join]")
    expect(join).to_be_enabled()
    proxy.drop()
    expect(join).to_be_disabled()  # a tap now would be sent nowhere
    expect(join).to_be_enabled()
    assert len(proxy.sockets) == 2
    join.click()
    expect(racer_row(ana, "Ben")).to_be_visible()
