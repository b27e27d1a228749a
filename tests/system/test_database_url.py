"""H2H_DATABASE_URL: a sqlite:// URL serves the site on that file, set up as the default file is
(WAL, IMMEDIATE transactions, a busy timeout), PostgreSQL's pool is PostgreSQL's alone, and a URL
of any other engine stops the start with an error that names the variable."""

import http.client
import json
import sqlite3

import pytest
from django.core.exceptions import ImproperlyConfigured
from websockets.sync.client import connect

from h2h_site.settings import database_from_env
from tests.harness.server import Server, make_players, manage, server_env

CODE = "HH1-N-AAAAAAC"


@pytest.fixture
def sqlite_url_env(tmp_path) -> dict:
    """A server's environment whose database is named by a sqlite:// URL only: the default
    file's path points elsewhere, where nothing may be written."""
    return server_env(
        sqlite_path=str(tmp_path / "not-this.sqlite3"),
        database_url=f"sqlite:///{tmp_path / 'by-url.sqlite3'}",
    )


@pytest.mark.slow
def test_a_daphne_on_a_sqlite_url_serves_a_page_and_a_move(tmp_path, sqlite_url_env):
    manage(sqlite_url_env, "migrate", "--noinput")
    [player] = make_players(sqlite_url_env, 1, prefix="url")
    with Server(sqlite_url_env, log_path=str(tmp_path / "daphne.log")) as server:
        page = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
        page.request("GET", "/", headers={"Cookie": f"sessionid={player['sessionid']}"})
        assert page.getresponse().status == 200
        url, cookie = server.ws_url(f"/ws/play/{CODE}/"), f"sessionid={player['sessionid']}"
        with connect(url, origin=server.origin, additional_headers={"Cookie": cookie}) as ws:
            assert json.loads(ws.recv(timeout=5))["type"] == "state"
            ws.send(json.dumps({"type": "tap", "seq": 1, "target": "stock"}))
            assert json.loads(ws.recv(timeout=5))["event"] == "draw"
    stored = sqlite3.connect(tmp_path / "by-url.sqlite3")
    assert stored.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    assert stored.execute("SELECT count(*) FROM game_action").fetchone() == (1,)
    assert not (tmp_path / "not-this.sqlite3").exists()


def test_a_sqlite_url_is_set_up_as_the_default_file_is(monkeypatch, sqlite_url_env):
    monkeypatch.delenv("H2H_DATABASE_URL", raising=False)
    default = database_from_env()
    monkeypatch.setenv("H2H_DATABASE_URL", sqlite_url_env["H2H_DATABASE_URL"])
    by_url = database_from_env()
    assert by_url["ENGINE"] == default["ENGINE"] == "django.db.backends.sqlite3"
    assert by_url["NAME"].endswith("by-url.sqlite3")
    assert by_url["OPTIONS"] == default["OPTIONS"]
    assert by_url["OPTIONS"]["transaction_mode"] == "IMMEDIATE"
    assert "journal_mode=WAL" in by_url["OPTIONS"]["init_command"]
    assert "busy_timeout=20000" in by_url["OPTIONS"]["init_command"]
    assert "pool" not in by_url["OPTIONS"]


@pytest.mark.parametrize(
    "url",
    ["mysql://h2h:secret@db.example.org/h2h", "oracle://h2h:secret@db/h2h", "garbage", "x://"],
)
def test_a_url_of_an_engine_the_site_does_not_run_on_stops_the_start(monkeypatch, url):
    monkeypatch.setenv("H2H_DATABASE_URL", url)
    with pytest.raises(ImproperlyConfigured, match="H2H_DATABASE_URL") as refusal:
        database_from_env()
    assert "secret" not in str(refusal.value)  # the error is logged: never the password


@pytest.mark.slow
def test_daphne_on_a_mysql_url_does_not_start_and_names_the_variable(tmp_path):
    env = server_env(
        sqlite_path=str(tmp_path / "db.sqlite3"), database_url="mysql://h2h:secret@db/h2h"
    )
    server = Server(env, log_path=str(tmp_path / "daphne.log"))
    with pytest.raises(RuntimeError, match="daphne exited"):
        server.start()
    assert (
        "ImproperlyConfigured: H2H_DATABASE_URL is a mysql:// URL"
        in (tmp_path / "daphne.log").read_text()
    )
