"""The deployment kit for real: Debian's nginx running deploy/nginx/ (TLS with a certificate made
for the test, and the plain-http server) in front of two daphne processes started with
deploy/systemd/h2h@.service's own command line, on PostgreSQL + Redis, in production mode.

The test's nginx is unprivileged and its own (tests/harness/nginx.py): a prefix, pid, logs and
temp dirs in a temporary folder, loopback ports. From the kit's files it changes only what must
differ on this machine (`kit_config`): the listen addresses, the daphne ports, the certificate's
and the checkout's paths. Debian's nginx.conf and default site play no part.
"""

import http.client
import json
import os
import re
import shutil
import tempfile
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from websockets.sync.client import connect

from tests.harness import reconnect_storm
from tests.harness.nginx import NGINX, ROOT, Nginx, kit_config, unit_daphne_arguments, unverified
from tests.harness.server import Server, free_port, make_players, manage, server_env
from tests.system.conftest import PRODUCTION_ENV, scaled_services, winnable

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.slow]

FAILURES_PER_ADDRESS = 3
TIMEOUT = 10
STORM_SOCKETS = 200


@pytest.fixture(scope="module", autouse=True)
def nginx_installed():
    if NGINX and shutil.which("openssl"):
        return
    message = "needs Debian's nginx and openssl (apt-get install nginx; `make test` installs it)"
    if os.environ.get("CI"):
        pytest.fail(f"{message}: CI must run the deployment kit's test, never skip it")
    pytest.skip(message)


@pytest.fixture(scope="module")
def site(static_collected):
    """(nginx, https port, http port, the two daphne servers, a player, the env)."""
    # The Redis database the run was given: emptied, as the scaled pass's tests expect.
    redis_db = int(urlsplit(os.environ["H2H_REDIS_URL"]).path.strip("/") or 0)
    with scaled_services("h2h_nginx", redis_db) as (database_url, redis_url):
        workdir = Path(tempfile.mkdtemp(prefix="h2h-nginx-"))
        env = server_env(
            sqlite_path=str(workdir / "unused.sqlite3"),
            database_url=database_url,
            redis_url=redis_url,
            **PRODUCTION_ENV,
            H2H_ALLOW_HTTP_ORIGINS="0",
            H2H_SSL_REDIRECT="1",
            H2H_WORKERS="2",
            H2H_TAP_RATE="0",
            H2H_LOGIN_FAILURES_PER_ADDRESS=str(FAILURES_PER_ADDRESS),
        )
        manage(env, "migrate", "--noinput")
        (player,) = make_players(env, 1, prefix="proxied")
        arguments = unit_daphne_arguments()
        daphnes = [
            Server(env, log_path=str(workdir / f"daphne-{n}.log"), arguments=arguments).start()
            for n in (1, 2)
        ]
        https_port, http_port = free_port(), free_port()
        kit_config(
            workdir,
            daphne_ports=[d.port for d in daphnes],
            http_port=http_port,
            https_port=https_port,
        )
        nginx = Nginx(workdir, [https_port, http_port]).start()
        try:
            yield nginx, https_port, http_port, daphnes, player, env
        finally:
            nginx.stop()
            for daphne in daphnes:
                daphne.stop()


def fetch(port: int, path: str, *, tls: bool = True, method: str = "GET", headers=None, body=None):
    """(status, headers, body bytes) of one request to nginx, as a browser of the site sends it."""
    if tls:
        connection = http.client.HTTPSConnection(
            "127.0.0.1", port, timeout=TIMEOUT, context=unverified()
        )
    else:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=TIMEOUT)
    connection.request(method, path, body=body, headers=headers or {})
    response = connection.getresponse()
    return response.status, response.headers, response.read()


def daphne_logs(daphnes) -> list[str]:
    return [Path(daphne.log_path).read_text() for daphne in daphnes]


def test_a_game_is_played_over_a_websocket_through_nginx(site):
    _, https_port, _, _, player, env = site
    code, plan = winnable(env)
    origin = f"https://127.0.0.1:{https_port}"
    uri = f"wss://127.0.0.1:{https_port}/ws/play/{code}/"
    cookie = {"Cookie": f"sessionid={player['sessionid']}"}
    with connect(uri, origin=origin, additional_headers=cookie, ssl=unverified()) as ws:
        assert json.loads(ws.recv(timeout=TIMEOUT))["type"] == "state"
        for seq, target in enumerate(plan, start=1):
            ws.send(json.dumps({"type": "tap", "seq": seq, "target": target}))
            last = json.loads(ws.recv(timeout=TIMEOUT))
            assert last.get("seq") == seq, last
    assert last["game"]["status"] == "won" and last["view"]["score"] == 250


def login_page(port: int) -> tuple[str, str]:
    """(csrf cookie, form token) of the login page."""
    status, headers, body = fetch(port, "/accounts/login/")
    assert status == 200, status
    cookie = re.search(r"csrftoken=([^;]+)", headers["Set-Cookie"]).group(1)
    token = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', body).group(1).decode()
    return cookie, token


def test_a_spoofed_x_forwarded_for_does_not_reach_the_login_throttle(site):
    _, https_port, _, _, _, _ = site
    cookie, token = login_page(https_port)

    def log_in(attempt: int) -> int:
        headers = {
            "Cookie": f"csrftoken={cookie}",
            "Content-Type": "application/x-www-form-urlencoded",
            "Origin": f"https://127.0.0.1:{https_port}",
            "X-Forwarded-For": f"203.0.113.{attempt}",  # a new address claimed every time
        }
        body = f"login=guess{attempt}&password=wrong&csrfmiddlewaretoken={token}"
        return fetch(https_port, "/accounts/login/", method="POST", headers=headers, body=body)[0]

    # Each attempt names another user, so that only the address's count can run out.
    assert [log_in(n) for n in range(FAILURES_PER_ADDRESS)] == [200] * FAILURES_PER_ADDRESS
    assert log_in(FAILURES_PER_ADDRESS) == 429


def test_the_probes_answer_through_nginx_unlogged_over_https_and_plain_http(site):
    nginx, https_port, http_port, daphnes, _, _ = site
    status, _, body = fetch(https_port, "/readyz")
    assert status == 200, body
    assert json.loads(body) == {"status": "ok", "database": "ok", "channel_layer": "ok"}
    status, _, body = fetch(http_port, "/readyz", tls=False)
    assert status == 200 and json.loads(body)["status"] == "ok"
    # A balancer calls by address: no Host of the site's, plain http, not redirected.
    balancer = {"Host": "10.20.30.40"}
    assert fetch(http_port, "/healthz", tls=False, headers=balancer)[0] == 200
    status, headers, _ = fetch(http_port, "/accounts/login/", tls=False)
    assert status == 301 and headers["Location"].startswith("https://")
    assert fetch(https_port, "/")[0] == 200
    logs = {"nginx": nginx.access_log(), "daphne": "".join(daphne_logs(daphnes))}
    for log in logs.values():
        assert re.search(r'"GET /[ "]', log), log  # the page is logged, in either's format
        assert "/readyz" not in log and "/healthz" not in log


def test_both_daphne_processes_serve_through_nginx(site):
    _, https_port, _, daphnes, _, _ = site
    for _ in range(4):
        assert fetch(https_port, "/leaderboard/daily/")[0] == 200
    assert all("/leaderboard/daily/" in log for log in daphne_logs(daphnes))


def test_static_files_are_served_by_nginx_with_long_cache_headers(site):
    _, https_port, _, daphnes, _, _ = site
    manifest = json.loads((ROOT / "staticfiles/staticfiles.json").read_text())["paths"]
    hashed = manifest["board/board.js"]
    status, headers, body = fetch(https_port, f"/static/{hashed}")
    assert status == 200 and body == (ROOT / "staticfiles" / hashed).read_bytes()
    assert headers["Cache-Control"] == "public, max-age=31536000, immutable"
    assert headers["Content-Type"].startswith(("application/javascript", "text/javascript"))
    status, headers, _ = fetch(https_port, f"/static/{hashed}", headers={"Accept-Encoding": "gzip"})
    assert status == 200 and headers["Content-Encoding"] == "gzip"  # collectstatic's own copy
    status, headers, _ = fetch(https_port, "/static/board/board.js")
    assert status == 200 and headers["Cache-Control"] == "public, max-age=300"
    assert not any("/static/" in log for log in daphne_logs(daphnes))  # nginx's, not daphne's


def test_metrics_are_not_served_through_nginx_but_by_each_process_to_loopback(site):
    _, https_port, http_port, daphnes, _, _ = site
    for path in ("/metrics", "/metrics?name[]=h2h_results_total", "//metrics", "/%6Detrics"):
        assert fetch(https_port, path)[0] == 404, path
    assert fetch(http_port, "/metrics", tls=False)[0] == 301  # to https, where it is 404
    for daphne in daphnes:
        status, _, body = fetch(daphne.port, "/metrics", tls=False)
        assert status == 200 and b"h2h_open_sockets" in body


def test_sockets_of_a_killed_process_all_resume_with_no_502_even_on_a_process_just_restarted(
    site,
):
    """bench.reconnect_storm's run, once: 200 play sockets, each process killed and restarted
    in turn, the second as soon as the first listens again. Each kill's sockets reconnect as
    the pages do and every one resumes its game with no handshake refused: after the first kill
    nginx skips the dead process, after the second it sends all 200 to the process that has
    just come back (nginx's defaults answered them 502, "no live upstreams", for 40 s).
    The resume time is the benchmark's figure (docs/reliability.md), not asserted here."""
    nginx, https_port, _, daphnes, _, env = site
    players = make_players(env, STORM_SOCKETS, prefix="storm")
    storm = reconnect_storm.Site(daphnes, players, https_port)
    first, second = reconnect_storm.storm(storm, number=0)
    assert first["closed"] > 0 and second["closed"] == STORM_SOCKETS, (first, second)
    for kill in (first, second):
        assert kill["resumed"] == kill["closed"] and kill["resumed_not_exact"] == 0, kill
        assert kill["handshakes_failed"] == {} and kill["closed_before_greeting"] == {}, kill
    assert "no live upstreams" not in nginx.error_log()
