"""Fixtures of the system tests: a daphne process, collected static files, a thread runner, and
a fresh PostgreSQL database and Redis database for the scaled set-up's tests."""

import asyncio
import contextlib
import os
import secrets
import tempfile
import threading
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import psycopg
import pytest
import redis

from game import engine
from tests.harness.server import Server, make_players, manage, server_env

# A production start's environment: DEBUG off, private keys, named hosts.
PRODUCTION_ENV = {
    "H2H_DEBUG": "0",
    "H2H_SECRET_KEY": "a-production-secret-key-that-is-long-and-random-0123456789abcdef",
    "H2H_ALLOWED_HOSTS": "127.0.0.1,hearts.example.org",
    "H2H_DEAL_KEY": "a-private-deal-key-of-more-than-thirty-two-chars",
    "H2H_EMAIL_URL": "smtp://h2h:secret@127.0.0.1:2525/?tls=True",
}


def in_thread(function, *args, **kwargs):
    """Call `function` in a thread of its own and return its result (or raise its error).

    A sync test cannot use asyncio.run() once another test left a loop running in the main
    thread (Playwright's sync API does), so the harnesses' loops run in a thread of their own.
    """
    outcome = {}

    def target():
        try:
            outcome["value"] = function(*args, **kwargs)
        except BaseException as error:  # handed to the caller's thread
            outcome["error"] = error

    thread = threading.Thread(target=target, name="reliability-harness")
    thread.start()
    thread.join()
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]


def run_async(coroutine):
    """asyncio.run(coroutine) on a fresh loop in its own thread."""
    return in_thread(asyncio.run, coroutine)


@pytest.fixture(scope="session")
def daphne():
    """A real daphne over a SQLite file of its own, rate limit off, with 12 players logged in.

    Yields (server, players): players are {"name", "sessionid"} (tests/harness/players.py).
    """
    workdir = Path(tempfile.mkdtemp(prefix="h2h-rel-"))
    env = server_env(sqlite_path=str(workdir / "db.sqlite3"), H2H_TAP_RATE="0")
    manage(env, "migrate", "--noinput")
    players = make_players(env, 12, prefix="rel")
    server = Server(env, log_path=str(workdir / "daphne.log")).start()
    yield server, players
    server.stop()


@pytest.fixture(scope="session")
def static_collected():
    """Production pages need collected static files (a clean clone has none): collect them once."""
    env = server_env(sqlite_path=str(Path(tempfile.mkdtemp()) / "db.sqlite3"))
    manage(env, "collectstatic", "--noinput")


def winnable(env: dict) -> tuple[str, list]:
    """(code, plan): a code the solver wins under the server's deal key, and how."""
    key = env.get("H2H_DEAL_KEY") or engine.DEFAULT_DEAL_KEY
    for seed in range(1000, 2000):
        code = engine.format_code("N", seed)
        plan = engine.solve(code, key=key)
        if plan:
            return code, plan
    raise AssertionError("no winnable code")


def with_path(url: str, path: str) -> str:
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, path, "", ""))


@contextlib.contextmanager
def scaled_services(prefix: str, redis_db: int):
    """(database_url, redis_url): a fresh PostgreSQL database named after `prefix` and the
    emptied Redis database `redis_db` (a number no other test uses), both from H2H_DATABASE_URL
    and H2H_REDIS_URL; dropped and emptied again afterwards."""
    base = os.environ["H2H_DATABASE_URL"]
    name = f"{prefix}_{secrets.token_hex(4)}"
    admin = with_path(base, "/postgres")
    with psycopg.connect(admin, autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')
    redis_url = with_path(os.environ["H2H_REDIS_URL"], f"/{redis_db}")
    store = redis.Redis.from_url(redis_url)
    store.flushdb()
    try:
        yield with_path(base, f"/{name}"), redis_url
    finally:
        store.flushdb()
        with psycopg.connect(admin, autocommit=True) as connection:
            connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
