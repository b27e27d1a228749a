"""Racing a ghost in a real browser: the ghost's panel beside the board waits for the first move,
then advances on its recorded timeline, says when the ghost clears the heart and who won; on a
360 px phone in both languages and both themes, with no accessibility violation axe-core finds."""

import re

import pytest
from playwright.sync_api import expect

from game import engine
from tests.e2e import deals
from tests.e2e.axe import axe_violations
from tests.e2e.conftest import PHONE, create_users
from tests.harness.server import manage

pytestmark = pytest.mark.e2e

GAP_S = 0.15  # between the ghost's recorded taps: its whole win plays back in seconds

# A finished, won game of `code` by `player`, its taps stored GAP_S apart: the ghost.
RECORD = """
import datetime, time_machine
from django.contrib.auth import get_user_model
from django.utils import timezone
from game import services
player = get_user_model().objects.get(username={player!r})
with time_machine.travel(timezone.now() - datetime.timedelta(hours=1), tick=False) as clock:
    game = services.game_open(player=player, code={code!r})
    clock.shift(20)
    selected = None
    for seq, action in enumerate({plan!r}, start=1):
        reply = services.game_tap(
            game=services.LockedGame(game.pk), player=player, seq=seq, target=action,
            selected=selected,
        )
        selected = reply.state.selected
        clock.shift({gap!r})
print(game.pk)
"""


def recorded(server, code: str, plan, gap: float) -> int:
    """Gus's won game of `code`, its taps `gap` seconds apart: its id."""
    script = RECORD.format(player="gus", code=code, plan=list(plan), gap=gap)
    return int(manage(server.env, "shell", "-c", script).strip().splitlines()[-1])


@pytest.fixture(scope="module")
def ghost(live_server_process):
    """(code, game id, its plan): a won game by Gus to race, and the players who race it."""
    create_users(live_server_process, ["gus", "hilde", "ivo", "jun"])
    code = next(c for c in deals.codes(24) if engine.solve(c, key=deals.DEAL_KEY))
    plan = engine.solve(code, key=deals.DEAL_KEY)
    return code, recorded(live_server_process, code, plan, GAP_S), plan


def stat(page, name: str) -> str:
    return page.locator(f"[data-ghost-stat={name}]").inner_text()


def test_the_ghost_advances_from_the_first_move_and_the_end_says_who_won(
    open_page, ghost, artifacts
):
    code, ghost_id, plan = ghost
    board = open_page("hilde", f"/play/{code}/?ghost={ghost_id}")
    page, panel = board.page, board.page.locator("[data-ghost]")
    expect(panel).to_contain_text("Ghost of Gus")
    expect(panel.locator("[data-ghost-live]")).to_have_attribute("aria-live", "polite")
    page.wait_for_timeout(600)
    assert (stat(page, "heart_left"), stat(page, "moves")) == ("25", "0")  # waits for you
    board.tap("stock")
    expect(panel).not_to_have_attribute("data-moves", "0")
    first = int(panel.get_attribute("data-moves"))
    expect(panel).not_to_have_attribute("data-moves", str(first), timeout=3000)  # it goes on
    timeline_s = len(plan) * GAP_S + 5
    expect(page.locator("[data-ghost-stat=heart_left]")).to_have_text(
        "0", timeout=timeline_s * 1000
    )
    expect(panel.locator("[data-ghost-say]")).to_have_text(
        re.compile(r"The ghost cleared the heart in 0:\d\d\.")
    )
    assert stat(page, "score") == str(engine.WIN_SCORE)
    before = board.frames()
    page.locator(".h2h-controls [data-action=resign]").click()
    board.answered(before)
    expect(panel).to_have_attribute("data-winner", "ghost")
    expect(panel.locator("[data-ghost-say]")).to_have_text("The ghost won this race.")
    page.locator("#h2h-ended form.h2h-close button").click()
    page.screenshot(path=str(artifacts / "ghost-end-desktop-light.png"))


@pytest.mark.parametrize("locale, words", [("en-US", "Ghost of Gus"), ("ms-MY", "Hantu Gus")])
def test_the_ghost_panel_on_a_phone_in_both_themes(open_page, ghost, artifacts, locale, words):
    code, ghost_id, _ = ghost
    board = open_page(
        "ivo", f"/play/{code}/?ghost={ghost_id}", locale=locale, device=PHONE, bypass_csp=True
    )
    page, panel = board.page, board.page.locator("[data-ghost]")
    expect(panel).to_contain_text(words)
    if board.stat("moves") == "0":
        board.tap("stock")
    expect(panel).not_to_have_attribute("data-moves", "0")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    box = panel.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 360
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        page.wait_for_timeout(250)
        page.screenshot(path=str(artifacts / f"ghost-phone-{locale[:2]}-{scheme}.png"))
        assert axe_violations(page, "[data-ghost]") == [], scheme


def test_clearing_the_heart_before_a_slow_ghost_beats_it(open_page, ghost, server, artifacts):
    code, _, plan = ghost
    slow = recorded(server, code, plan, 3.0)  # its win took over five minutes
    board = open_page("jun", f"/play/{code}/?ghost={slow}", color_scheme="dark")
    board.play(plan)
    panel = board.page.locator("[data-ghost]")
    expect(panel).to_have_attribute("data-winner", "you")
    expect(panel.locator("[data-ghost-say]")).to_have_text(
        re.compile(r"^You beat the ghost! It took [5-9]:\d\d to clear the heart\.$")
    )
    board.page.locator("#h2h-win form.h2h-close button").click()
    board.page.evaluate("window.scrollTo(0, 0)")
    board.page.wait_for_timeout(400)  # the last pair's removal
    board.page.screenshot(path=str(artifacts / "ghost-beaten-desktop-dark.png"))
