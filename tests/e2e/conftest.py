"""Browser tests: a live daphne on a free port over a temporary SQLite file, driven by Debian's
Chromium through Playwright. The server runs as its own process so a test can restart it."""

import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.e2e.deals import DEAL_KEY

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = Path(__file__).parent / "artifacts"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
PASSWORD = "hearts-e2e-password"
USERS = ["ana", "ben", "cai", "dina", "eli", "fay"]  # fay logs out

CREATE_USERS = f"""
from django.contrib.auth import get_user_model
from game.models import Profile
for name in {USERS!r}:
    user = get_user_model().objects.create_user(name, password={PASSWORD!r})
    Profile.objects.create(user=user, display_name=name.capitalize())
"""


def pytest_collection_modifyitems(config, items):
    if shutil.which(CHROMIUM):
        return
    skip = pytest.mark.skip(reason=f"browser tests need Debian's Chromium at {CHROMIUM}")
    for item in items:
        if "e2e" in item.keywords:
            item.add_marker(skip)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class LiveServer:
    """daphne serving the project on 127.0.0.1:<port>; start, stop and restart it."""

    def __init__(self, workdir: Path) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = workdir / "daphne.log"
        self.env = {
            key: value
            for key, value in os.environ.items()
            if key not in {"H2H_DATABASE_URL", "H2H_REDIS_URL"}
        }
        self.env |= {
            "H2H_SQLITE_PATH": str(workdir / "db.sqlite3"),
            "H2H_DEAL_KEY": DEAL_KEY,
            "H2H_DEBUG": "1",
            "PYTHONUNBUFFERED": "1",
        }
        self.process: subprocess.Popen | None = None

    def manage(self, *args: str) -> None:
        command = [sys.executable, "manage.py", *args]
        subprocess.run(command, cwd=ROOT, env=self.env, check=True, capture_output=True)

    def start(self) -> None:
        command = [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(self.port)]
        with self.log.open("a") as log:
            self.process = subprocess.Popen(
                [*command, "h2h_site.asgi:application"],
                cwd=ROOT,
                env=self.env,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        self._wait_until_listening()

    def _wait_until_listening(self, timeout: float = 15) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"daphne exited: see {self.log}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                    return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError(f"daphne did not listen on {self.port}: see {self.log}")

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None

    def restart(self) -> None:
        self.stop()
        self.start()


@pytest.fixture(scope="session")
def live_server_process(tmp_path_factory):
    server = LiveServer(tmp_path_factory.mktemp("e2e"))
    server.manage("migrate", "--noinput")
    server.manage("compilemessages", "--ignore=.venv")
    server.manage("shell", "-c", CREATE_USERS)
    server.start()
    yield server
    server.stop()


@pytest.fixture
def server(live_server_process):
    """The live server, running (a test that stopped it gets it back)."""
    if live_server_process.process is None:
        live_server_process.start()
    return live_server_process


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture(scope="session")
def logins():
    """Storage states of logged-in players, made once per player."""
    return {}


DESKTOP = {"viewport": {"width": 1280, "height": 800}}
PHONE = {
    "viewport": {"width": 360, "height": 740},
    "device_scale_factor": 2,
    "is_mobile": True,
    "has_touch": True,
}


@pytest.fixture
def open_page(server, browser, logins):
    """open_page(user, path, locale=, device=, setup=) -> a Board on that page, logged in.

    `setup(page)` runs before the page loads, e.g. to route its websocket."""
    from tests.e2e.board import Board, log_in

    contexts = []

    def open_page(user, path, *, locale="en-US", device=DESKTOP, setup=None, **options):
        context = browser.new_context(
            base_url=server.url,
            locale=locale,
            storage_state=logins.get(user),
            **device,
            **options,
        )
        context.set_default_timeout(8000)
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.on("console", lambda message: csp_violation(message, errors))
        if user not in logins:
            log_in(page, user, PASSWORD)
            logins[user] = context.storage_state()
        if setup:
            setup(page)
        board = Board(page, errors)
        board.open(path)
        return board

    errors: list[str] = []
    yield open_page
    for context in contexts:
        context.close()
    assert errors == [], f"JavaScript errors on the page: {errors}"


def csp_violation(message, errors: list[str]) -> None:
    if message.type == "error" and "Content Security Policy" in message.text:
        errors.append(message.text)


@pytest.fixture(scope="session")
def artifacts():
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS
