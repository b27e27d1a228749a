"""The board while the server cannot store moves: it says so, in the player's language, and
sends the same move again with the same seq until it is stored, once."""

import json
import re

import pytest
from playwright.sync_api import expect

from tests.e2e import deals

pytestmark = pytest.mark.e2e


class NotStoredTwice:
    """Proxy the play socket and answer the first draw `storage_unavailable` twice, as a server
    whose database refuses writes would, before letting it through. Records what the board sent."""

    def __init__(self):
        self.refusals = 2
        self.sent = []

    def __call__(self, page):
        page.route_web_socket(re.compile(r"/ws/play/"), self.route)

    def route(self, ws):
        server = ws.connect_to_server()

        def from_page(message):
            frame = json.loads(message)
            self.sent.append(frame)
            if frame.get("target") == "stock" and self.refusals:
                self.refusals -= 1
                refusal = {"type": "error", "seq": frame["seq"], "error": "storage_unavailable"}
                return ws.send(json.dumps(refusal | {"message": "Not stored."}))
            server.send(message)

        ws.on_message(from_page)
        server.on_message(ws.send)


@pytest.mark.parametrize(
    ("locale", "notice"),
    [("en-US", "Connection trouble — retrying…"), ("ms-MY", "Masalah sambungan — mencuba semula…")],
)
def test_a_move_not_stored_is_retried_with_its_seq_while_the_board_says_so(
    open_page, locale, notice
):
    code = deals.code_where(deals.playable, seed=41 if locale == "en-US" else 43)
    proxy = NotStoredTwice()
    board = open_page("yara", f"/play/{code}/", locale=locale, setup=proxy)
    board.page.locator("[data-target=stock]").click()
    expect(board.page.locator(".h2h-offline")).to_have_text(notice)
    expect(board.root).to_have_class(re.compile(r"\boffline\b"))  # no taps meanwhile
    expect(board.page.locator(".h2h-offline")).to_be_hidden(timeout=10_000)
    expect(board.page.locator("[data-stat=moves]")).to_have_text("1")
    expect(board.root).to_have_attribute("data-pending", "0")
    expect(board.page.locator(".h2h-toast")).to_be_hidden()
    draws = [frame["seq"] for frame in proxy.sent if frame.get("target") == "stock"]
    assert len(draws) == 3 and len(set(draws)) == 1
    assert board.tap("stock") == "draw"
    assert board.stat("moves") == "2"
