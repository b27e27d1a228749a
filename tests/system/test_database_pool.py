"""PostgreSQL connections: page requests take them from Django's pool, H2H_DB_POOL_SIZE sizes
it, and 0 goes back to a connection opened for every request."""

import http.client
import tempfile

import pytest

from h2h_site.settings import database_from_env, database_pool
from tests.harness.pages import get_page
from tests.harness.server import Server, make_players, manage, server_env, sessions_opened
from tests.system.conftest import scaled_services

POSTGRES_URL = "postgres://h2h:secret@db.example.org:5432/h2h?sslmode=require"


@pytest.fixture(scope="module")
def database(static_collected):
    """(env, session key): a migrated database of its own and a player logged in to it."""
    with scaled_services("h2h_pool", redis_db=12) as (database_url, _redis_url):
        env = server_env(sqlite_path=tempfile.mktemp(), database_url=database_url)
        manage(env, "migrate", "--noinput")
        [player] = make_players(env, 1, prefix="pool")
        yield env, player["sessionid"]


@pytest.mark.slow
@pytest.mark.postgres
@pytest.mark.redis
@pytest.mark.parametrize(("pool_size", "opened"), [("20", 0), ("0", 5)])
def test_page_requests_take_their_connections_from_the_pool(database, pool_size, opened):
    env, session_key = database
    url = env["H2H_DATABASE_URL"]
    with Server({**env, "H2H_DB_POOL_SIZE": pool_size}) as server:
        page = http.client.HTTPConnection("127.0.0.1", server.port)
        get_page(page, session_key)  # the pool opens its first connection
        before = sessions_opened(url)
        for _ in range(5):
            get_page(page, session_key)
        assert sessions_opened(url) - before == opened


def test_a_database_url_gets_a_pool_of_twenty_by_default(monkeypatch):
    monkeypatch.setenv("H2H_DATABASE_URL", POSTGRES_URL)
    monkeypatch.delenv("H2H_DB_POOL_SIZE", raising=False)
    options = database_from_env()["OPTIONS"]
    assert options["pool"]["max_size"] == 20
    assert options["sslmode"] == "require"  # the URL's own options are kept


def test_a_pool_size_of_zero_opens_a_connection_for_every_request(monkeypatch):
    monkeypatch.setenv("H2H_DATABASE_URL", POSTGRES_URL)
    monkeypatch.setenv("H2H_DB_POOL_SIZE", "0")
    assert "pool" not in database_from_env()["OPTIONS"]


def test_a_negative_pool_size_stops_the_start(monkeypatch):
    monkeypatch.setenv("H2H_DB_POOL_SIZE", "-1")
    with pytest.raises(ValueError, match="H2H_DB_POOL_SIZE"):
        database_pool()


def test_sqlite_has_no_pool(monkeypatch):
    monkeypatch.delenv("H2H_DATABASE_URL", raising=False)
    assert "pool" not in database_from_env()["OPTIONS"]
