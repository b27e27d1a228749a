"""The site's header on a narrow phone: every main link shows whole, in both languages."""

import pytest

from tests.e2e.conftest import PHONE

pytestmark = pytest.mark.e2e

LINK_BOXES = """links => links.map(link => {
  const box = link.getBoundingClientRect();
  return [box.left, box.right, link.scrollWidth <= link.clientWidth];
})"""


@pytest.mark.parametrize("language", ["en", "ms"])
def test_every_main_link_shows_whole_on_a_360_px_phone(page_of, server, language, artifacts):
    page = page_of(None, PHONE)
    page.context.add_cookies([{"name": "django_language", "value": language, "url": server.url}])
    page.goto("/")
    boxes = page.eval_on_selector_all(".site-nav a", LINK_BOXES)
    assert len(boxes) == 3
    assert all(left >= 0 and right <= 360 and whole for left, right, whole in boxes), boxes
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    page.screenshot(path=artifacts / f"header-phone-{language}.png")
