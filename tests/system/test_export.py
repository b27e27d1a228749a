"""A player's data export from a real daphne: sent as it is written (chunked, its first part
long before its last), whole and valid JSON. bench.export measures its memory."""

import json
import socket
import time

import pytest

from tests.harness.server import Server, manage, server_env

pytestmark = pytest.mark.slow  # a server of its own and 150,000 actions written: about 10 s

GAMES, MOVES = 300, 500


@pytest.fixture(scope="module")
def exporting(tmp_path_factory):
    """A daphne over a SQLite file of its own with one account of GAMES finished games of
    MOVES actions; yields (server, the account's session key)."""
    workdir = tmp_path_factory.mktemp("export")
    env = server_env(sqlite_path=str(workdir / "db.sqlite3"))
    manage(env, "migrate", "--noinput")
    code = f"from tests.harness.export_account import main; main([('ann', {GAMES}, {MOVES})])"
    account = json.loads(manage(env, "shell", "-c", code).strip().splitlines()[-1])[0]
    with Server(env, log_path=str(workdir / "daphne.log")) as server:
        yield server, account["sessionid"]


def get(server: Server, path: str, sessionid: str):
    """(status line, headers, reader) of a GET over a plain socket: the body is left unread."""
    connection = socket.create_connection(("127.0.0.1", server.port), timeout=60)
    lines = [f"GET {path} HTTP/1.1", "Host: 127.0.0.1", f"Cookie: sessionid={sessionid}"]
    connection.sendall(("\r\n".join([*lines, "Connection: close", "", ""])).encode())
    reader = connection.makefile("rb")
    connection.close()  # the reader keeps the socket open
    status = reader.readline().decode().strip()
    headers = {}
    while (line := reader.readline()) != b"\r\n":
        name, _, value = line.decode().partition(":")
        headers[name.strip().lower()] = value.strip()
    return status, headers, reader


def chunks(reader) -> list[tuple[float, bytes]]:
    """A chunked body's chunks as they arrive, each with the moment it was read whole."""
    arrived = []
    while size := int(reader.readline().split(b";")[0], 16):
        arrived.append((time.monotonic(), reader.read(size)))
        assert reader.readline() == b"\r\n"
    return arrived


def test_the_export_is_streamed_in_chunks_and_arrives_whole(exporting):
    server, sessionid = exporting
    get(server, "/accounts/profile/", sessionid)[2].close()  # a first page warms the server
    asked = time.monotonic()
    status, headers, reader = get(server, "/accounts/export/", sessionid)
    with reader:
        arrived = chunks(reader)
    assert status == "HTTP/1.1 200 OK"
    assert headers["transfer-encoding"] == "chunked" and "content-length" not in headers
    assert headers["content-type"] == "application/json; charset=utf-8"
    assert headers["content-disposition"].startswith("attachment; filename=")
    assert headers["cache-control"] == "no-store"
    first, last = arrived[0][0] - asked, arrived[-1][0] - asked
    assert len(arrived) > GAMES and first < last / 2, (first, last)  # not read whole first
    document = json.loads(b"".join(chunk for _, chunk in arrived))
    assert document["format"] == "heart-to-heart-account" and len(document["games"]) == GAMES
    assert {len(game["actions"]) for game in document["games"]} == {MOVES}
