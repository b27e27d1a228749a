"""Installing the site in Chromium: the manifest and its icons, the service worker, and the offline
page a navigation gets when the server is stopped, in the player's language."""

import json
import re
import struct

import pytest

from tests.e2e.conftest import CHROMIUM, CHROMIUM_ARGS, PHONE

pytestmark = pytest.mark.e2e

CODE = "HH1-N-AAAAAAM"
OFFLINE_PAGES = {"/offline/en/", "/offline/ms/"}
OFFLINE_TITLE = {"en": "The server cannot be reached", "ms": "Pelayan tidak dapat dihubungi"}

CACHE_CONTENTS = """async () => {
  const entries = [];
  for (const name of await caches.keys()) {
    const cache = await caches.open(name);
    for (const request of await cache.keys()) {
      const response = await cache.match(request);
      const type = response.headers.get("Content-Type") || "";
      entries.push({
        cache: name, path: new URL(request.url).pathname, type, body: await response.text(),
      });
    }
  }
  return entries;
}"""


def png_size(body: bytes) -> tuple[int, int]:
    assert body[:8] == b"\x89PNG\r\n\x1a\n" and body[12:16] == b"IHDR"
    return struct.unpack(">II", body[16:24])


def controlled_after_reload(page) -> str:
    """The script URL of the worker controlling the page once it is reloaded."""
    page.evaluate("async () => { await navigator.serviceWorker.ready; }")
    page.reload()
    return page.evaluate("navigator.serviceWorker.controller?.scriptURL ?? null")


def test_the_manifest_parses_with_its_icons(open_page):
    page = open_page("ana", f"/play/{CODE}/").page
    href = page.get_attribute("link[rel=manifest]", "href")
    response = page.request.get(href)
    assert response.headers["content-type"] == "application/manifest+json"
    manifest = response.json()
    assert manifest["start_url"] == "/daily/" and manifest["display"] == "standalone"
    assert manifest["name"] == "Heart to Heart" and manifest["short_name"]
    sizes = set()
    for icon in manifest["icons"]:
        body = page.request.get(icon["src"]).body()
        width, height = png_size(body)
        assert icon["sizes"] == f"{width}x{height}"
        sizes.add((width, icon["purpose"]))
    assert {(192, "any"), (512, "any"), (512, "maskable")} <= sizes


def test_chromium_parses_the_manifest_and_finds_the_site_installable(browser, server, tmp_path):
    # Not in an incognito context (Playwright's usual kind): Chromium installs nothing from one.
    context = browser.browser_type.launch_persistent_context(
        tmp_path, executable_path=CHROMIUM, args=CHROMIUM_ARGS, base_url=server.url
    )
    page = context.new_page()
    page.goto("/accounts/login/")
    controlled_after_reload(page)
    cdp = context.new_cdp_session(page)
    manifest = cdp.send("Page.getAppManifest")
    assert manifest["url"] == f"{server.url}/manifest.webmanifest" and manifest["errors"] == []
    assert cdp.send("Page.getInstallabilityErrors")["installabilityErrors"] == []
    context.close()


def test_the_worker_controls_the_page_after_a_reload(open_page, server):
    page = open_page("ana", f"/play/{CODE}/").page
    assert controlled_after_reload(page) == f"{server.url}/sw.js"


def offline_navigation(page, server, path: str = "/daily/") -> str:
    """Navigate to `path` with the server stopped; the language of the page that shows."""
    server.stop()
    page.goto(path)
    return page.get_attribute("html", "lang")


def test_with_the_server_stopped_a_navigation_shows_the_offline_page_then_the_game(
    open_page, server
):
    page = open_page("ana", f"/play/{CODE}/").page
    controlled_after_reload(page)
    assert offline_navigation(page, server, f"/play/{CODE}/") == "en"
    assert page.locator("h1").inner_text() == OFFLINE_TITLE["en"]
    assert page.url.endswith(f"/play/{CODE}/")
    page.click("[data-retry]")
    page.wait_for_selector("[data-retry-status]:has-text('Still no answer')")
    server.start()
    # It tries again by itself every few seconds and opens the page once the server answers.
    page.wait_for_selector("#board[data-ready]", timeout=15_000)
    assert page.url.endswith(f"/play/{CODE}/")


def test_the_offline_page_speaks_the_language_the_player_chose(open_page, server):
    page = open_page("ana", f"/play/{CODE}/").page
    page.click("footer button[value=ms]")
    page.wait_for_selector("html[lang=ms]")
    controlled_after_reload(page)
    assert offline_navigation(page, server) == "ms"
    assert page.locator("h1").inner_text() == OFFLINE_TITLE["ms"]
    server.start()
    page.wait_for_selector("link[rel=manifest]", state="attached", timeout=15_000)
    assert page.get_attribute("html", "lang") == "ms"


def test_no_page_with_a_game_or_a_csrf_token_is_ever_cached(open_page, server):
    page = open_page("ana", f"/play/{CODE}/").page
    controlled_after_reload(page)
    page.goto("/accounts/password_change/")  # a logged-in player's form: allauth's login redirects
    token = page.get_attribute("main input[name=csrfmiddlewaretoken]", "value")
    for path in ["/daily/", f"/leaderboard/deal/{CODE}/", f"/play/{CODE}/"]:
        page.goto(path)
    shell = set(json.loads(re.search(r"const SHELL = (.*);", page.request.get("/sw.js").text())[1]))
    offline_navigation(page, server)
    entries = page.evaluate(CACHE_CONTENTS)
    html = {entry["path"] for entry in entries if entry["type"].startswith("text/html")}
    assert html == OFFLINE_PAGES
    assert {entry["path"] for entry in entries} <= shell | OFFLINE_PAGES | {"/sw.js"}
    for entry in entries:
        assert "csrfmiddlewaretoken" not in entry["body"], entry["path"]
        assert token not in entry["body"], entry["path"]
        assert 'id="h2h-game"' not in entry["body"], entry["path"]


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("language", ["en", "ms"])
def test_the_offline_page_fits_a_phone_in_both_themes(browser, server, artifacts, language, scheme):
    context = browser.new_context(base_url=server.url, color_scheme=scheme, **PHONE)
    page = context.new_page()
    page.goto(f"/offline/{language}/")
    assert page.locator("h1").inner_text() == OFFLINE_TITLE[language]
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
    page.screenshot(path=str(artifacts / f"offline-phone-{language}-{scheme}.png"), full_page=True)
    context.close()
