"""Browser tests: a live daphne on a free port over a temporary SQLite file, driven by Debian's
Chromium through Playwright. The server runs as its own process so a test can restart it."""

import shutil
from pathlib import Path

import pytest

from tests.e2e.deals import DEAL_KEY
from tests.harness.server import Server, manage, server_env

ARTIFACTS = Path(__file__).parent / "artifacts"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
PASSWORD = "hearts-e2e-password"
USERS = ["ana", "ben", "cai", "dina", "eli", "fay", "wren", "yara"]  # fay logs out


def create_users(server, names) -> None:
    """Accounts with the tests' password, shown by their capitalized name. A module that needs
    a daily deal no other test plays makes its own players with this."""
    server.manage(
        "shell",
        "-c",
        f"""
from django.contrib.auth import get_user_model
from game.models import Profile
for name in {list(names)!r}:
    user = get_user_model().objects.create_user(
        name, email=f"{{name}}@example.org", password={PASSWORD!r}
    )
    Profile.objects.create(user=user, display_name=name.capitalize())
""",
    )


def pytest_collection_modifyitems(config, items):
    if shutil.which(CHROMIUM):
        return
    skip = pytest.mark.skip(reason=f"browser tests need Debian's Chromium at {CHROMIUM}")
    for item in items:
        if "e2e" in item.keywords:
            item.add_marker(skip)


class LiveServer(Server):
    """daphne serving the project in DEBUG on a SQLite file of its own; start, stop, restart."""

    def __init__(self, workdir: Path) -> None:
        env = server_env(
            sqlite_path=str(workdir / "db.sqlite3"), H2H_DEAL_KEY=DEAL_KEY, H2H_DEBUG="1"
        )
        super().__init__(env, log_path=str(workdir / "daphne.log"))

    @property
    def url(self) -> str:
        return self.origin

    def manage(self, *args: str) -> None:
        manage(self.env, *args)

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def restart(self) -> None:
        self.stop()
        self.start()


@pytest.fixture(scope="session")
def live_server_process(tmp_path_factory):
    server = LiveServer(tmp_path_factory.mktemp("e2e"))
    server.manage("migrate", "--noinput")
    server.manage("compilemessages", "--ignore=.venv")
    create_users(server, USERS)
    server.start()
    yield server
    server.stop()


@pytest.fixture
def server(live_server_process):
    """The live server, running (a test that stopped it gets it back)."""
    if not live_server_process.running:
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


@pytest.fixture
def page_of(server, browser, logins):
    """page_of(user or None, device, **context options) -> a page on the live server, logged
    in as `user`: one browser context each, as two people on two devices."""
    from tests.e2e.board import log_in

    contexts, errors = [], []

    def page_of(user, device=DESKTOP, **options):
        state = logins.get(user) if user else None
        context = browser.new_context(
            base_url=server.url, locale="en-US", storage_state=state, **device, **options
        )
        context.set_default_timeout(10_000)
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        if user and user not in logins:
            log_in(page, user, PASSWORD)
            logins[user] = context.storage_state()
        return page

    yield page_of
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
