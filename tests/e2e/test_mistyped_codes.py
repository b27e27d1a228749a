"""A mistyped deal code in a real browser: the home page's form and the race page's say what a
code looks like under or above the field, in the player's language, on a page that loads with
200, so no error shows in the browser's console (the home form's 400 did); a mistyped board
address stays a 400 page (docs/protocol.md) with the same sentence."""

import pytest
from playwright.sync_api import expect

from tests.e2e.board import log_in
from tests.e2e.conftest import DESKTOP, PASSWORD, PHONE, create_users

pytestmark = pytest.mark.e2e

TOLD = {
    "en": "A deal code looks like HH1-N-ABCDEFG: HH1, then N or D, then seven letters.",
    "ms": "Kod agihan kelihatan seperti HH1-N-ABCDEFG: HH1, kemudian N atau D, kemudian tujuh"
    " huruf.",
}
LOCALES = {"en": "en-US", "ms": "ms-MY"}
RACER = "osman"  # a name no other test uses


@pytest.fixture(scope="module")
def racer(live_server_process):
    create_users(live_server_process, [RACER])
    return RACER


@pytest.fixture
def visit(server, browser):
    """visit(language, device) -> (a page in that language, the console's errors on it)."""
    contexts = []

    def visit(language, device=DESKTOP):
        context = browser.new_context(base_url=server.url, locale=LOCALES[language], **device)
        context.set_default_timeout(10_000)
        contexts.append(context)
        page, errors = context.new_page(), []
        page.on("console", lambda message: message.type == "error" and errors.append(message.text))
        page.on("pageerror", lambda error: errors.append(str(error)))
        return page, errors

    yield visit
    for context in contexts:
        context.close()


@pytest.mark.parametrize("language", ["en", "ms"])
@pytest.mark.parametrize("device", [DESKTOP, PHONE], ids=["desktop", "phone"])
@pytest.mark.parametrize("button", ["play", "leaderboard"])
def test_the_home_forms_mistyped_code_is_told_under_the_field_with_no_console_error(
    visit, artifacts, language, device, button
):
    page, errors = visit(language, device)
    page.goto("/")
    page.fill("#id_code", "HH1-N-BAD")
    with page.expect_navigation() as navigation:
        page.locator(f".code-form button[value={button}]").click()
    assert navigation.value.status == 200
    form = page.locator(".code-form")
    expect(form.locator(".errorlist")).to_have_text(TOLD[language])
    expect(form.locator("#id_code")).to_have_attribute("aria-invalid", "true")
    expect(form.locator("#id_code")).to_have_value("HH1-N-BAD")
    expect(form.locator(".errorlist")).to_be_in_viewport()  # the page opens at the form
    name = "desktop" if device is DESKTOP else "phone"
    page.screenshot(path=artifacts / f"mistyped-home-{language}-{name}-{button}.png")
    assert errors == []


@pytest.mark.parametrize("language", ["en", "ms"])
def test_the_race_forms_mistyped_code_is_told_with_no_console_error(
    visit, racer, artifacts, language
):
    page, errors = visit(language)
    log_in(page, racer, PASSWORD)
    page.goto("/race/")
    page.fill("#race-code", "hh1 n bad")
    with page.expect_navigation() as navigation:
        page.locator("form:has(#race-code) [type=submit]").click()
    assert navigation.value.status == 200
    expect(page.locator("main [role=alert]")).to_have_text(TOLD[language])
    expect(page.locator("#race-code")).to_have_value("hh1 n bad")
    page.screenshot(path=artifacts / f"mistyped-race-{language}.png")
    assert errors == []


@pytest.mark.parametrize("language", ["en", "ms"])
def test_a_mistyped_board_address_is_a_400_page_saying_what_a_code_looks_like(visit, language):
    page, _ = visit(language, PHONE)
    response = page.goto("/play/HH1-N-BAD/")
    assert response.status == 400
    expect(page.locator("main")).to_contain_text(TOLD[language])
