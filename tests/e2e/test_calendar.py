"""The daily calendar and the player page in Chromium: marks after a win, and accessibility."""

import datetime
import re

import pytest
from playwright.sync_api import expect

from game import engine
from tests.e2e import deals
from tests.e2e.axe import axe_violations
from tests.e2e.conftest import DESKTOP, PASSWORD, PHONE

pytestmark = pytest.mark.e2e

# hana's ranked dailies, days ago: (won, seconds, undos), as the services would have written them.
HANA = {7: (True, 95, 0), 5: (False, 300, 2), 3: (True, 200, 1), 1: (True, 61, 0)}
MARKS = {7: "won clean", 5: "played", 3: "won", 2: "not played", 1: "won clean"}
HISTORY = f"""
import datetime
from django.contrib.auth import get_user_model
from django.utils import timezone
from game.selectors.daily import daily_today
from game.models import DailyDeal, Game, Profile, Result
for name in ("gwen", "hana"):
    user = get_user_model().objects.create_user(name, password={PASSWORD!r})
    Profile.objects.create(user=user, display_name=name.capitalize())
for n, (won, seconds, undos) in {HANA!r}.items():
    day = daily_today() - datetime.timedelta(days=n)
    code = "HH1-D-AAAAAA" + "ABCDEFGH"[n]
    deal, _ = DailyDeal.objects.get_or_create(date=day, defaults={{"code": code}})
    end = timezone.now() - datetime.timedelta(days=n)
    start = end - datetime.timedelta(seconds=seconds)
    status = "won" if won else "resigned"
    game = Game.objects.create(
        player=user, code=code, daily=deal, ranked=True, status=status,
        started_at=start, finished_at=end)
    Result.objects.create(
        game=game, player=user, code=code, daily=deal, ranked=True, won=won,
        score=250 if won else 90, moves=50, undos=undos, placement_help=False,
        duration_ms=seconds * 1000, finished_at=end)
"""


@pytest.fixture(scope="module")
def hana(live_server_process):
    """hana, with the history above; gwen, with none."""
    live_server_process.manage("shell", "-c", HISTORY)
    return "hana"


def test_the_calendar_shows_today_as_won_after_winning_the_daily(open_page, hana, artifacts):
    board = open_page("gwen", "/daily/")
    board.start()
    board.play(engine.solve(board.code, key=deals.DEAL_KEY))
    expect(board.page.locator("#h2h-win")).to_be_visible()
    page = board.page
    page.goto("/leaderboard/daily/")
    page.get_by_role("link", name=re.compile("Calendar")).click()
    today = page.locator("td.day.today")
    expect(today).to_have_attribute("aria-label", re.compile(r"^\d{4}-\d{2}-\d{2}: won( clean)?$"))
    expect(today.locator("a.date")).to_have_attribute("href", "/daily/")
    page.screenshot(path=artifacts / "calendar-after-win-desktop.png", full_page=True)


LOOKS = {
    "english-light-desktop": {"locale": "en-US", "device": DESKTOP, "color_scheme": "light"},
    "malay-dark-phone": {"locale": "ms-MY", "device": PHONE, "color_scheme": "dark"},
}


@pytest.mark.parametrize("look", LOOKS)
@pytest.mark.parametrize("path", ["/daily/calendar/", "/players/Hana/"])
def test_axe_finds_no_violation_on_the_calendar_and_the_player_page(
    open_page, hana, artifacts, look, path
):
    page = open_page(hana, "/daily/", bypass_csp=True, **LOOKS[look]).page
    page.goto(path)
    expect(page.locator("main")).to_contain_text("Hana")
    assert axe_violations(page) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]
    name = path.strip("/").replace("/", "-").lower()
    page.screenshot(path=artifacts / f"{name}-{look}.png", full_page=True)


def test_a_players_page_links_to_their_calendar_which_marks_each_day(open_page, hana):
    page = open_page(hana, "/daily/").page
    page.goto("/players/Hana/")
    page.get_by_role("link", name=re.compile("Calendar")).click()
    expect(page).to_have_url(re.compile(r"/daily/calendar/\?player=Hana$"))
    today = datetime.date.fromisoformat(page.locator("td.day.today").get_attribute("data-date"))
    for n, mark in MARKS.items():
        day = (today - datetime.timedelta(days=n)).isoformat()
        page.goto(f"/daily/calendar/?player=Hana&month={day[:7]}")
        expect(page.locator(f'td[data-date="{day}"]')).to_have_attribute(
            "aria-label", f"{day}: {mark}"
        )
