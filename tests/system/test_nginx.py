"""The deployment kit for real: Debian's nginx running deploy/nginx/ (TLS with a certificate made
for the test, and the plain-http server) in front of two daphne processes started with
deploy/systemd/h2h@.service's own command line, on PostgreSQL + Redis, in production mode.

The test's nginx is unprivileged and its own: a prefix, pid, logs and temp dirs in a temporary
folder, loopback ports. From the kit's files it changes only what must differ on this machine
(`kit_config`): the listen addresses, the daphne ports, the certificate's and the checkout's
paths. Debian's nginx.conf and default site play no part.
"""

import http.client
import json
import os
import re
import shlex
import shutil
import socket
import ssl
import subprocess
import tempfile
import time
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from websockets.sync.client import connect

from bench.server import Server, free_port, make_players, manage, server_env
from tests.system.conftest import PRODUCTION_ENV, scaled_services, winnable

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]
KIT = ROOT / "deploy"
FAILURES_PER_ADDRESS = 3
TIMEOUT = 10
# Debian puts it in /usr/sbin, which a user's PATH may lack.
NGINX = shutil.which("nginx") or shutil.which("nginx", path="/usr/sbin")


@pytest.fixture(scope="module", autouse=True)
def nginx_installed():
    if NGINX and shutil.which("openssl"):
        return
    message = "needs Debian's nginx and openssl (apt-get install nginx; `make test` installs it)"
    if os.environ.get("CI"):
        pytest.fail(f"{message}: CI must run the deployment kit's test, never skip it")
    pytest.skip(message)


def unit_daphne_arguments() -> list[str]:
    """daphne's arguments in the h2h@ unit's ExecStart, "{port}" for its instance (%i)."""
    unit = (KIT / "systemd/h2h@.service").read_text().replace("\\\n", " ")
    (line,) = [line for line in unit.splitlines() if line.startswith("ExecStart=")]
    command = shlex.split(line.removeprefix("ExecStart="))
    assert command[0].endswith("/.venv/bin/daphne"), command
    return [argument.replace("%i", "{port}") for argument in command[1:]]


def substituted(text: str, *replacements: tuple[str, str]) -> str:
    """`text` with each (pattern, replacement) applied; each pattern must match."""
    for pattern, replacement in replacements:
        text, count = re.subn(pattern, replacement, text, flags=re.M)
        assert count, f"the kit no longer has {pattern!r}"
    return text


def kit_config(workdir: Path, *, daphne_ports: list[int], http_port: int, https_port: int):
    """The kit's files laid out as in /etc/nginx, changed only where this machine differs."""
    nginx = KIT / "nginx"
    upstream_servers = "".join(f"    server 127.0.0.1:{port};\n" for port in daphne_ports)
    files = {
        "conf.d/h2h-upstream.conf": substituted(
            (nginx / "h2h-upstream.conf").read_text(),
            (r"(^    server 127\.0\.0\.1:\d+;\n)+", upstream_servers),
        ),
        "snippets/h2h-locations.conf": substituted(
            (nginx / "h2h-locations.conf").read_text(), (r"/srv/h2h/", f"{ROOT}/")
        ),
        "sites-enabled/h2h": substituted(
            (nginx / "h2h.conf").read_text(),
            (r"^    listen \[::\]:.*\n", ""),
            (r"listen 80 ", f"listen 127.0.0.1:{http_port} "),
            (r"listen 443 ", f"listen 127.0.0.1:{https_port} "),
            (r"/etc/letsencrypt/live/hearts\.example\.org/", f"{workdir}/tls/"),
        ),
        "nginx.conf": main_config(workdir),
    }
    for name, text in files.items():
        (workdir / name).parent.mkdir(parents=True, exist_ok=True)
        (workdir / name).write_text(text)
    make_certificate(workdir / "tls")


def main_config(workdir: Path) -> str:
    """What Debian's nginx.conf gives the site, with this run's own files."""
    temp = workdir / "temp"
    temp.mkdir()
    paths = "\n".join(
        f"    {kind}_temp_path {temp / kind};"
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    # As root the workers would otherwise run as nobody, who may not read the checkout.
    user = "user root;\n" if os.geteuid() == 0 else ""
    return f"""{user}daemon off;
worker_processes 1;
pid {workdir}/nginx.pid;
error_log {workdir}/error.log;
events {{ worker_connections 256; }}
http {{
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    sendfile on;
    access_log {workdir}/access.log;
{paths}
    include conf.d/*.conf;
    include sites-enabled/*;
}}
"""


def make_certificate(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
         "-nodes", "-days", "2", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
         "-keyout", str(folder / "privkey.pem"), "-out", str(folder / "fullchain.pem")],
        check=True, capture_output=True,
    )  # fmt: skip


class Nginx:
    """nginx in the foreground on the kit's config in `workdir`."""

    def __init__(self, workdir: Path, ports: list[int]) -> None:
        self.workdir, self.ports = workdir, ports
        conf, errors = str(workdir / "nginx.conf"), str(workdir / "error.log")
        self.command = [NGINX, "-p", str(workdir), "-c", conf, "-e", errors]

    def start(self) -> "Nginx":
        tested = subprocess.run([*self.command, "-t"], capture_output=True, text=True)
        assert tested.returncode == 0, tested.stderr
        self.process = subprocess.Popen(self.command, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + TIMEOUT
        while not all(listening(port) for port in self.ports):
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError((self.workdir / "error.log").read_text())
            time.sleep(0.05)
        return self

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=TIMEOUT)

    def access_log(self) -> str:
        return (self.workdir / "access.log").read_text()


def listening(port: int) -> bool:
    with socket.socket() as probe:
        return probe.connect_ex(("127.0.0.1", port)) == 0


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


def unverified() -> ssl.SSLContext:
    """The test's certificate is its own: trusted without a chain."""
    context = ssl.create_default_context()
    context.check_hostname, context.verify_mode = False, ssl.CERT_NONE
    return context


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
    hashed = manifest["game/board.js"]
    status, headers, body = fetch(https_port, f"/static/{hashed}")
    assert status == 200 and body == (ROOT / "staticfiles" / hashed).read_bytes()
    assert headers["Cache-Control"] == "public, max-age=31536000, immutable"
    assert headers["Content-Type"].startswith(("application/javascript", "text/javascript"))
    status, headers, _ = fetch(https_port, f"/static/{hashed}", headers={"Accept-Encoding": "gzip"})
    assert status == 200 and headers["Content-Encoding"] == "gzip"  # collectstatic's own copy
    status, headers, _ = fetch(https_port, "/static/game/board.js")
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
