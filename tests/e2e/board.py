"""A test's handle on the play page: taps through the real DOM and waits for the server's answer."""

import re
import time

from playwright.sync_api import Locator, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

# The socket allows bursts of 20 frames, then 10 a second; tests stay under it.
MIN_GAP_S = 0.1
# How long an answer may take: generous, as CI shares two cores between the suite, the
# server and the browser; the server's SQLite busy timeout (20 s) bounds any lock wait.
ANSWER_TIMEOUT_MS = 15_000


def log_in(page: Page, user: str, password: str) -> None:
    page.goto("/accounts/login/")
    page.fill("input[name=login]", user)
    page.fill("input[name=password]", password)
    page.locator("main form [type=submit]").click()
    page.wait_for_url(re.compile(r"^(?!.*/accounts/login/)"))


class Board:
    def __init__(self, page: Page, errors: list[str]) -> None:
        self.page = page
        self.errors = errors
        self.last_tap = 0.0

    def open(self, path: str) -> None:
        self.page.goto(path)
        self.wait_ready()

    def wait_ready(self) -> None:
        self.page.wait_for_selector("#board[data-ready]")
        self.page.wait_for_selector("#board:not(.offline)")

    @property
    def root(self) -> Locator:
        return self.page.locator("#board")

    @property
    def code(self) -> str:
        return self.page.locator(".h2h-code .h2h-v").inner_text().strip()

    def at(self, target) -> Locator:
        return self.page.locator(f".h2h-heart [data-target='{target}']")

    def frames(self) -> int:
        return int(self.root.get_attribute("data-frames") or 0)

    def event(self) -> str:
        return self.root.get_attribute("data-event") or ""

    def answered(self, before: int) -> None:
        """Wait for a frame after the first `before`, and for every action to be answered."""
        try:
            self.page.wait_for_function(
                "n => { const b = document.getElementById('board').dataset;"
                " return Number(b.frames) > n && b.pending === '0'; }",
                arg=before,
                timeout=ANSWER_TIMEOUT_MS,
            )
        except PlaywrightTimeout as timeout:
            board = self.page.evaluate("() => ({...document.getElementById('board').dataset})")
            offline = self.page.locator(".h2h-offline").is_visible()
            raise AssertionError(
                f"no answer after frame {before}: board {board}, offline {offline},"
                f" page errors {self.errors}"
            ) from timeout

    @property
    def start_screen(self) -> Locator:
        return self.page.locator("#board [data-start]")

    def start(self) -> None:
        """Press Start on a ranked daily game that waits for it (else do nothing)."""
        if self.start_screen.is_hidden():
            return
        before = self.frames()
        self.start_screen.locator("[data-action=start]").click()
        self.answered(before)
        expect(self.start_screen).to_be_hidden()

    def _paced(self) -> None:
        wait = self.last_tap + MIN_GAP_S - time.monotonic()
        if wait > 0:
            time.sleep(wait)
        self.last_tap = time.monotonic()

    def tap(self, target, *, touch: bool = False) -> str:
        """Click (or touch) a target where it is visible, wait for the answer, return its event."""
        self._paced()
        before = self.frames()
        node = self.at(target)
        # A covered card shows only its top strip: aim there, as a player would.
        box = node.bounding_box()
        spot = {"x": box["width"] / 2, "y": min(10, box["height"] / 2)}
        if touch:
            node.tap(position=spot)
        else:
            node.click(position=spot)
        self.answered(before)
        return self.event()

    def press(self, key: str) -> str:
        self._paced()
        before = self.frames()
        self.page.keyboard.press(key)
        self.answered(before)
        return self.event()

    def play(self, actions) -> None:
        for action in actions:
            self.tap(action)

    def undo(self) -> None:
        before = self.frames()
        self.page.locator(".h2h-controls [data-action=undo]").click()
        self.answered(before)

    def stat(self, name: str) -> str:
        return self.page.locator(f"[data-stat={name}]").inner_text()

    def classes(self, target) -> set[str]:
        return set((self.at(target).get_attribute("class") or "").split())

    def with_class(self, name: str) -> list:
        """Targets whose element has class `name`, in DOM order."""
        found = self.page.eval_on_selector_all(
            f".h2h-heart [data-target].{name}", "nodes => nodes.map(n => n.dataset.target)"
        )
        return [int(t) if t.isdigit() else t for t in found]

    def toggle_setting(self, name: str, on: bool) -> None:
        box = self.page.locator(f"[data-setting={name}]")
        if box.is_checked() != on:
            before = self.frames()
            box.click()
            if name == "placementHelp":
                self.answered(before)
        expect(box).to_be_checked(checked=on)

    def shot(self, path) -> None:
        self.page.wait_for_timeout(350)  # let a removal animation end
        self.page.screenshot(path=str(path))
