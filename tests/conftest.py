"""Shared test set-up: the scaled set-up's services are required in CI and optional elsewhere.

Tests marked `postgres` or `redis` need H2H_DATABASE_URL / H2H_REDIS_URL. `make test` runs
the suite on SQLite and then, in CI, every test folder that touches the database or the channel
layer again with both set (the Makefile's SCALED_TESTS), so in CI such a test is left out of the
SQLite pass (it runs in the second) and never skipped. The site's fixtures (players, cookies,
winnable codes) live in tests/site.py.
"""

import os
from concurrent.futures import Executor, Future

import pytest
from django.conf import settings

from tests.layers import failing_layer  # noqa: F401  (a channel layer that fails on command)
from tests.site import (  # noqa: F401  (the site's fixtures, for every test folder)
    before_midnight,
    deals_drawn,
    make_player,
    on_socket,
    player,
    player_cookie,
    rival,
    rival_cookie,
    winnable,
)

IN_CI = bool(os.environ.get("CI"))
NEEDS = {"postgres": ("H2H_DATABASE_URL", "PostgreSQL"), "redis": ("H2H_REDIS_URL", "Redis")}


def missing_service(item) -> tuple[str, str] | None:
    for marker, (variable, service) in NEEDS.items():
        if marker in item.keywords and not os.environ.get(variable):
            return variable, service
    return None


def pytest_collection_modifyitems(config, items):
    kept, left_for_scaled_pass = [], []
    for item in items:
        missing = missing_service(item)
        if missing is None:
            kept.append(item)
        elif IN_CI:
            left_for_scaled_pass.append(item)
        else:
            variable, service = missing
            reason = f"needs {service}: set {variable} (CI always does)"
            item.add_marker(pytest.mark.skip(reason=reason))
            kept.append(item)
    if left_for_scaled_pass:
        config.hook.pytest_deselected(items=left_for_scaled_pass)
        items[:] = kept
    # The browser tests last (after pytest-django's order, which is stable under this sort):
    # Playwright's sync API keeps an event loop running in the main thread for the rest of the
    # session, where no asyncio test could run its own.
    items.sort(key=lambda item: "e2e" in item.keywords)


@pytest.fixture(autouse=True)
def _channel_layer_answering():
    """Each test finds the channel layer as a fresh process would: Redis's layer is one object
    for the whole run, and a test that took it down must not leave the next test's sockets
    resynchronising when it comes back."""
    from game.storage import channel_layer

    channel_layer._links.clear()


@pytest.fixture(autouse=True)
def _forget_login_failures(request):
    """The login throttle counts failures in Django's cache, and snapshots are cached by their
    database's versions: no database test inherits either."""
    if request.node.get_closest_marker("django_db") is not None:
        from django.core.cache import caches

        for cache in caches.all(initialized_only=True):
            cache.clear()


class InCaller(Executor):
    """Runs each job at once in the caller's thread."""

    def submit(self, fn, /, *args, **kwargs) -> Future:
        future: Future = Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except Exception as error:
            future.set_exception(error)
        return future


def in_memory_database() -> bool:
    """The tests' database is SQLite's in memory unless a file or a server is named for them."""
    database = settings.DATABASES["default"]
    return database["ENGINE"].endswith("sqlite3") and not database.get("TEST", {}).get("NAME")


@pytest.fixture(autouse=True, scope="session")
def _one_writer_on_the_in_memory_database():
    """The in-memory SQLite database locks whole tables between connections, and a write from
    a thread of its own meets "database table is locked" instead of waiting: there, moves share
    the sockets' other database workers, and a par search runs in the thread that asks."""
    if not in_memory_database():
        yield
        return
    from game.runtime import par_searcher
    from game.storage import dbthread

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(dbthread, "_movers", dbthread._workers)
        patch.setattr(par_searcher, "_searcher", InCaller())
        yield


@pytest.fixture(autouse=True)
def _par_searches_end_with_their_test(request):
    """A par search outlives the game whose end asked for it. Waited for before the database is
    flushed, it cannot store its par in the next test's database, whose game of that code
    would then find the par stored and never push it."""
    marker = request.node.get_closest_marker("django_db")
    marked = marker is not None and marker.kwargs.get("transaction")
    if not marked and "transactional_db" not in request.fixturenames:
        yield
        return
    request.getfixturevalue("transactional_db")  # set up first, so torn down after the wait
    yield
    from game.runtime import par_searcher

    # The par thread runs its jobs in order: this one ends after every search asked before it.
    par_searcher._searcher.submit(lambda: None).result(timeout=60)


@pytest.fixture(autouse=True)
def _forget_public_sockets(request):
    """The public sockets' caps count per process: a test that ends without disconnecting
    a socket must not leave the next ones with a smaller share."""
    yield
    if request.node.get_closest_marker("django_db") is not None:
        from game.sockets import public

        public.per_user.open.clear()
        public.per_address.open.clear()
