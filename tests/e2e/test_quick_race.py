"""The quick race in two browsers: a player alone waits on the queue page, counted; a second
player's arrival takes both to one room, which shows no Ready and counts down by itself."""

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.board import log_in
from tests.e2e.conftest import PASSWORD, PHONE, create_users

pytestmark = pytest.mark.e2e

# Who waits, in which language and theme: the queue page is shot in each.
LOOKS = {"wren": ("en-US", "light"), "yara": ("ms-MY", "dark")}
WAITING = {"en-US": "Looking for a rival… 1 waiting", "ms-MY": "Mencari lawan… 1 menunggu"}


@pytest.fixture(scope="module")
def rivals(live_server_process) -> tuple[str, str]:
    """Two players of this module's own: a shared one may still belong to another module's
    room, which the quick race would send them back to."""
    create_users(live_server_process, ["kit", "lou"])
    return "kit", "lou"


@pytest.fixture
def phone_of(server, browser):
    """phone_of(user, locale, scheme) -> a logged-in page on a 360 px phone."""
    contexts = []

    def phone_of(user, locale="en-US", scheme="light"):
        context = browser.new_context(
            base_url=server.url, locale=locale, color_scheme=scheme, **PHONE
        )
        context.set_default_timeout(10_000)
        contexts.append(context)
        page = context.new_page()
        log_in(page, user, PASSWORD)
        return page

    yield phone_of
    for context in contexts:
        context.close()


@pytest.mark.parametrize("user", sorted(LOOKS))
def test_a_player_alone_waits_on_the_queue_page_counted(phone_of, artifacts, user):
    locale, scheme = LOOKS[user]
    page = phone_of(user, locale, scheme)
    page.goto("/race/quick/")
    expect(page.locator("[data-quick-status]")).to_have_text(WAITING[locale])
    page.screenshot(path=artifacts / f"quick-queue-{locale}-{scheme}-360.png", full_page=True)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 360  # nothing runs off a phone's screen


def test_two_players_pressing_quick_race_meet_in_one_room_that_starts_by_itself(
    phone_of, rivals, artifacts
):
    kit, lou = (phone_of(name) for name in rivals)
    kit.goto("/")
    kit.get_by_role("link", name="Quick race").click()
    expect(kit.locator("[data-quick-status]")).to_contain_text("1 waiting")
    lou.goto("/race/quick/")
    for page in (kit, lou):
        page.wait_for_url(re.compile(r"/race/[A-Z0-9]{6}/$"))
    assert kit.url == lou.url
    expect(lou.locator("[data-race-countdown]")).to_be_visible()
    expect(lou.locator("[data-race-do=ready]")).to_be_hidden()
    expect(lou.locator("#race-link")).to_have_count(0)
    lou.screenshot(path=artifacts / "quick-room-countdown-360.png", full_page=True)
    expect(lou.locator("[data-race-board]")).to_be_visible(timeout=15_000)
