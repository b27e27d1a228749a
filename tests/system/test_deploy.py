"""Deployment: production settings pass the deploy checks with nothing silenced, the project's
checks refuse unsafe set-ups, a production daphne sends safe headers and cookies, its service
worker keeps the hashed static names, it accepts websockets from https pages only, and without
DEBUG daphne does not start on public keys."""

import http.client
import json
import os
import re
import subprocess
import sys
import tempfile
import tomllib
from importlib.metadata import version
from pathlib import Path

import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from game.engine import DEFAULT_DEAL_KEY
from h2h_site.settings import DEVELOPMENT_SECRET_KEY, MIN_KEY_LENGTH
from tests.harness.server import Server, manage, server_env
from tests.system.conftest import PRODUCTION_ENV as PRODUCTION

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
PASSWORD = "a-long-password-for-the-deploy-test"


def deploy_check(**overrides: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith("H2H_")}
    command = [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"]
    env |= {**PRODUCTION, **overrides}
    return subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)


def test_production_passes_the_deploy_checks_with_nothing_silenced():
    outcome = deploy_check()
    assert outcome.returncode == 0, outcome.stderr
    shown = manage(
        {**os.environ, **PRODUCTION},
        "shell",
        "-c",
        "from django.conf import settings; print(len(settings.SILENCED_SYSTEM_CHECKS))",
    )
    assert shown.strip().splitlines()[-1] == "0"


@pytest.mark.parametrize(
    ("overrides", "error"),
    [
        ({"H2H_ALLOWED_HOSTS": "*"}, "h2h.E001"),
        ({"H2H_WORKERS": "3"}, "h2h.E003"),
    ],
)
def test_the_project_checks_refuse_unsafe_set_ups(overrides, error):
    outcome = deploy_check(**overrides)
    assert outcome.returncode != 0 and error in outcome.stderr


def test_several_workers_pass_with_redis():
    assert deploy_check(H2H_WORKERS="3", H2H_REDIS_URL="redis://127.0.0.1:6379/5").returncode == 0


def test_daphne_is_at_least_4_2_2_and_pinned_so():
    installed = tuple(int(part) for part in version("daphne").split(".")[:3])
    assert installed >= (4, 2, 2)
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert any(re.fullmatch(r"daphne>=4\.2\.[2-9].*", dep) for dep in project["dependencies"])


@pytest.mark.parametrize(
    "document",
    ["Makefile", "docs/deployment.md", "tests/harness/server.py", "deploy/systemd/h2h@.service"],
)
def test_every_daphne_command_limits_websocket_messages(document):
    text = (ROOT / document).read_text()
    limits = re.findall(r"--websocket-max-message-size[\s\",]+(\d+)", text)
    assert limits and all(int(limit) <= 4096 for limit in limits)


# A production daphne --------------------------------------------------------------------

CREATE_PLAYER = f"""
from django.contrib.auth import get_user_model
from game.models import Profile
user = get_user_model().objects.create_user("deployer", password={PASSWORD!r})
Profile.objects.create(user=user, display_name="Deployer")
"""


@pytest.fixture(scope="module")
def production(static_collected):
    workdir = Path(tempfile.mkdtemp(prefix="h2h-deploy-"))
    env = server_env(
        sqlite_path=str(workdir / "db.sqlite3"),
        **PRODUCTION,
        H2H_SSL_REDIRECT="1",
        H2H_ALLOW_HTTP_ORIGINS="0",
    )
    manage(env, "migrate", "--noinput")
    manage(env, "shell", "-c", CREATE_PLAYER)
    with Server(env, log_path=str(workdir / "daphne.log")) as server:
        yield server


def request(server, method, path, headers=None, body=None):
    """One request as if through the TLS proxy (X-Forwarded-Proto: https)."""
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    sent = {"Host": f"127.0.0.1:{server.port}", "X-Forwarded-Proto": "https", **(headers or {})}
    connection.request(method, path, body=body, headers=sent)
    response = connection.getresponse()
    return response, response.read().decode("utf-8", "replace")


def cookies(response) -> dict[str, str]:
    """name -> the whole Set-Cookie header of each cookie set."""
    return {
        header.split("=", 1)[0]: header for header in response.headers.get_all("Set-Cookie") or []
    }


def assert_safe_cookie(header: str) -> None:
    attributes = {part.strip().split("=")[0].lower() for part in header.split(";")[1:]}
    assert {"secure", "httponly", "samesite"} <= attributes, header
    assert re.search(r"samesite=(lax|strict)", header, re.I), header


def test_pages_carry_the_security_headers_and_no_inline_script(production):
    for path in ["/", "/accounts/login/", "/leaderboard/daily/", "/leaderboard/all-time/"]:
        response, html = request(production, "GET", path)
        assert response.status == 200, path
        assert response.headers["X-Frame-Options"] == "DENY"
        assert response.headers["X-Content-Type-Options"] == "nosniff"
        assert response.headers["Referrer-Policy"] in {"same-origin", "no-referrer"}
        assert "max-age=31536000" in response.headers["Strict-Transport-Security"]
        policy = response.headers["Content-Security-Policy"]
        assert re.search(r"script-src 'self'(;|$)", policy) and "unsafe" not in policy
        assert "frame-ancestors 'none'" in policy and "object-src 'none'" in policy
        # Every script is a file (src=) or data (json_script): none runs inline.
        inline = re.findall(r"<script(?![^>]*\bsrc=)(?![^>]*application/json)[^>]*>", html)
        assert inline == [], path


def test_plain_http_is_redirected_to_https(production):
    connection = http.client.HTTPConnection("127.0.0.1", production.port, timeout=10)
    connection.request("GET", "/", headers={"Host": f"127.0.0.1:{production.port}"})
    response = connection.getresponse()
    assert response.status == 301 and response.headers["Location"].startswith("https://")


def test_every_cookie_is_secure_httponly_and_samesite(production):
    response, page = request(production, "GET", "/accounts/login/")
    csrf_cookie = cookies(response)["csrftoken"]
    assert_safe_cookie(csrf_cookie)
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
    csrf = csrf_cookie.split(";")[0]
    body = f"login=deployer&password={PASSWORD}&csrfmiddlewaretoken={token}"
    headers = {
        "Cookie": csrf,
        "Content-Type": "application/x-www-form-urlencoded",
        "Origin": f"https://127.0.0.1:{production.port}",
        "Referer": f"https://127.0.0.1:{production.port}/accounts/login/",
    }
    response, _ = request(production, "POST", "/accounts/login/", headers, body)
    assert response.status == 302, response.status
    session = cookies(response)["sessionid"]
    assert_safe_cookie(session)
    language = "language=en&next=/&csrfmiddlewaretoken=" + token
    headers["Cookie"] = f"{csrf}; {session.split(';')[0]}"
    response, _ = request(production, "POST", "/i18n/setlang/", headers, language)
    assert_safe_cookie(cookies(response)["django_language"])


def test_production_settings_as_loaded(production):
    shown = manage(
        production.env,
        "shell",
        "-c",
        "import json; from django.conf import settings as s; print(json.dumps([s.DEBUG,"
        " s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE, s.LANGUAGE_COOKIE_SECURE,"
        " s.SECURE_HSTS_SECONDS, s.DATABASES['default'].get('CONN_MAX_AGE', 0)]))",
    )
    assert json.loads(shown.strip().splitlines()[-1]) == [False, True, True, True, 31536000, 0]


# Installing the site -----------------------------------------------------------------------

HASHED = re.compile(r"\.[0-9a-f]{12}\.\w+$")


def test_the_worker_keeps_the_hashed_files_production_pages_load(production):
    response, source = request(production, "GET", "/sw.js")
    assert response.status == 200 and response.headers["Cache-Control"] == "no-cache"
    shell = json.loads(re.search(r"^const SHELL = (.*);$", source, re.MULTILINE)[1])
    assert shell and all(HASHED.search(url) for url in shell), shell
    for page in ["/accounts/login/", "/offline/en/", "/offline/ms/"]:
        _, html = request(production, "GET", page)
        loaded = re.findall(r'(?:href|src)="(/static/[^"]+)"', html)
        assert loaded and set(loaded) <= set(shell), page
    _, manifest = request(production, "GET", "/manifest.webmanifest")
    assert {icon["src"] for icon in json.loads(manifest)["icons"]} <= set(shell)
    for url in shell:
        assert request(production, "GET", url)[0].status == 200, url


# Refusing to start on public keys ----------------------------------------------------------

PUBLIC_KEYS = {"H2H_SECRET_KEY": DEVELOPMENT_SECRET_KEY, "H2H_DEAL_KEY": DEFAULT_DEAL_KEY}
UNSAFE = {"unset": None, "the public default": "public", "short": "k" * (MIN_KEY_LENGTH - 1)}


@pytest.mark.parametrize("kind", UNSAFE)
@pytest.mark.parametrize("variable", PUBLIC_KEYS)
def test_daphne_without_debug_refuses_to_start_on_a_key_anyone_could_know(tmp_path, variable, kind):
    env = server_env(sqlite_path=str(tmp_path / "db.sqlite3"), **PRODUCTION)
    env.pop("H2H_DEBUG")
    env.pop(variable)
    if UNSAFE[kind] is not None:
        env[variable] = PUBLIC_KEYS[variable] if UNSAFE[kind] == "public" else UNSAFE[kind]
    server = Server(env, log_path=str(tmp_path / "daphne.log"))
    with pytest.raises(RuntimeError, match="daphne exited"):
        server.start()
    log = (tmp_path / "daphne.log").read_text()
    assert f"ImproperlyConfigured: {variable} " in log


# Websocket origins -------------------------------------------------------------------------


def open_socket(server, origin: str):
    """A play socket to the real server from a page of `origin` (anonymous: it is told so)."""
    uri = server.ws_url("/ws/play/HH1-N-AAAAAAC/")
    return connect(uri, origin=origin, open_timeout=5)


def test_a_production_server_refuses_a_websocket_from_an_http_page(production):
    with pytest.raises(InvalidStatus) as refusal:
        open_socket(production, f"http://127.0.0.1:{production.port}")
    assert refusal.value.response.status_code == 403
    with open_socket(production, f"https://127.0.0.1:{production.port}") as ws:
        assert "login_required" in ws.recv(timeout=5)


def test_a_plain_http_intranet_may_allow_http_pages(daphne):
    server, players = daphne
    assert server.env["H2H_DEBUG"] == "0" and server.env["H2H_ALLOW_HTTP_ORIGINS"] == "1"
    with open_socket(server, server.origin) as ws:
        assert "login_required" in ws.recv(timeout=5)
