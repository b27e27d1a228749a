"""Shared test set-up: the scaled set-up's services are required in CI and optional elsewhere.

Tests marked `postgres` or `redis` need H2H_DATABASE_URL / H2H_REDIS_URL. `make test` runs
the suite on SQLite and then, in CI, every test folder that touches the database or the channel
layer again with both set (the Makefile's SCALED_TESTS), so in CI such a test is left out of the
SQLite pass (it runs in the second) and never skipped. The site's fixtures (players, cookies,
winnable codes) live in tests/site.py.
"""

import os

import pytest

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


@pytest.fixture(autouse=True)
def _forget_login_failures(request):
    """The login throttle counts failures in Django's cache, and snapshots are cached by their
    database's versions: no database test inherits either."""
    if request.node.get_closest_marker("django_db") is not None:
        from django.core.cache import caches

        for cache in caches.all(initialized_only=True):
            cache.clear()


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
    from game.services import pars

    # The par thread runs its jobs in order: this one ends after every search asked before it.
    pars._searcher().submit(lambda: None).result(timeout=60)


@pytest.fixture(autouse=True)
def _forget_public_sockets(request):
    """The public sockets' caps count per process: a test that ends without disconnecting
    a socket must not leave the next ones with a smaller share."""
    yield
    if request.node.get_closest_marker("django_db") is not None:
        from game.sockets import public

        public.per_user.open.clear()
        public.per_address.open.clear()
