"""Production settings pass Django's deploy checks and ours refuse the unsafe set-ups; without
DEBUG no command starts on a secret or deal key anyone could know."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.test import override_settings

from game import checks
from game.engine import DEFAULT_DEAL_KEY
from h2h_site.settings import DEVELOPMENT_SECRET_KEY, MIN_KEY_LENGTH
from tests.system.conftest import PRODUCTION_ENV as PRODUCTION

ROOT = Path(__file__).resolve().parents[2]
PRODUCTION_ENV = PRODUCTION | {"H2H_ALLOWED_HOSTS": "hearts.example.org"}


def run_manage(*args: str, without: tuple[str, ...] = (), **overrides: str):
    """manage.py in a process of its own, on the production environment as changed."""
    env = {**os.environ, **PRODUCTION_ENV, **overrides}
    for name in without:
        env.pop(name, None)
    command = [sys.executable, "manage.py", *args]
    return subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)


def run_deploy_check(*, without: tuple[str, ...] = (), **overrides: str):
    return run_manage("check", "--deploy", "--fail-level", "WARNING", without=without, **overrides)


def test_production_settings_pass_the_deploy_checks_with_nothing_silenced():
    outcome = run_deploy_check()
    assert outcome.returncode == 0, outcome.stderr


def test_deploy_check_fails_when_several_workers_share_the_in_memory_layer():
    outcome = run_deploy_check(H2H_WORKERS="2", without=("H2H_REDIS_URL",))
    assert outcome.returncode != 0
    assert "h2h.E003" in outcome.stderr


def test_several_workers_pass_with_the_redis_layer():
    outcome = run_deploy_check(H2H_WORKERS="2", H2H_REDIS_URL="redis://127.0.0.1:6379/0")
    assert outcome.returncode == 0, outcome.stderr


def test_deploy_check_refuses_the_console_email_backend_without_debug():
    outcome = run_deploy_check(without=("H2H_EMAIL_URL",))
    assert outcome.returncode != 0
    assert "h2h.E005" in outcome.stderr


@override_settings(DEBUG=True, EMAIL_BACKEND="django.core.mail.backends.console.EmailBackend")
def test_the_console_email_backend_is_fine_in_development():
    assert checks.check_email_leaves_the_server(None) == []


def test_the_email_url_configures_smtp():
    outcome = run_manage(
        "shell",
        "-c",
        "from django.conf import settings as s; "
        "print(s.EMAIL_BACKEND, s.EMAIL_HOST, s.EMAIL_PORT, s.EMAIL_HOST_USER, s.EMAIL_USE_TLS)",
    )
    assert outcome.returncode == 0, outcome.stderr
    expected = "django.core.mail.backends.smtp.EmailBackend 127.0.0.1 2525 h2h True"
    assert outcome.stdout.strip().splitlines()[-1] == expected


@override_settings(ALLOWED_HOSTS=["*"])
def test_a_wildcard_allowed_host_is_an_error():
    assert [e.id for e in checks.check_allowed_hosts_are_named(None)] == ["h2h.E001"]


PUBLIC_KEYS = {"H2H_SECRET_KEY": DEVELOPMENT_SECRET_KEY, "H2H_DEAL_KEY": DEFAULT_DEAL_KEY}
UNSAFE = {
    "unset": (None, "is not set"),
    "empty": ("", "is not set"),
    "the public default": ("public", "is the public development default"),
    "short": ("k" * (MIN_KEY_LENGTH - 1), f"is shorter than {MIN_KEY_LENGTH} characters"),
}


def unsafe_key(variable: str, kind: str) -> tuple[dict, tuple[str, ...], str]:
    """(overrides, variables left out, the refusal's words) of one unsafe value of `variable`."""
    value, problem = UNSAFE[kind]
    if value is None:
        return {}, (variable, "H2H_DEBUG"), problem
    value = PUBLIC_KEYS[variable] if value == "public" else value
    return {variable: value}, ("H2H_DEBUG",), problem


@pytest.mark.parametrize("kind", UNSAFE)
@pytest.mark.parametrize("variable", PUBLIC_KEYS)
def test_without_debug_manage_check_refuses_a_key_anyone_could_know(variable, kind):
    overrides, without, problem = unsafe_key(variable, kind)
    outcome = run_manage("check", without=without, **overrides)
    assert outcome.returncode != 0
    assert f"ImproperlyConfigured: {variable} {problem}." in outcome.stderr


def test_without_debug_manage_check_passes_on_private_keys():
    outcome = run_manage("check", without=("H2H_DEBUG",))
    assert outcome.returncode == 0, outcome.stderr


SHOW_DEBUG = "from django.conf import settings; print(settings.DEBUG)"


def test_debug_is_off_unless_asked_for():
    shown = run_manage("shell", "-c", SHOW_DEBUG, without=("H2H_DEBUG",))
    assert shown.stdout.splitlines()[-1:] == ["False"], shown.stderr


def test_asking_for_debug_allows_the_public_development_keys():
    keys = ("H2H_SECRET_KEY", "H2H_DEAL_KEY")
    shown = run_manage("shell", "-c", SHOW_DEBUG, without=keys, H2H_DEBUG="1")
    assert shown.stdout.splitlines()[-1:] == ["True"], shown.stderr


@pytest.mark.filterwarnings("ignore:Overriding setting DATABASES")  # only the check reads it
def test_kept_database_connections_are_an_error(settings):
    settings.DATABASES = {"default": {**settings.DATABASES["default"], "CONN_MAX_AGE": 60}}
    assert [e.id for e in checks.check_connections_are_not_kept(None)] == ["h2h.E004"]


@pytest.mark.filterwarnings("ignore:Overriding setting DATABASES")
@pytest.mark.parametrize(("pool", "errors"), [({"max_size": 9}, ["h2h.E006"]),
                                              ({"max_size": 10}, []), (None, [])])  # fmt: skip
def test_a_pool_smaller_than_the_database_threads_is_an_error(settings, pool, errors):
    options = {"pool": pool} if pool else {}
    settings.DATABASES = {"default": {**settings.DATABASES["default"], "OPTIONS": options}}
    assert [e.id for e in checks.check_the_pool_holds_the_database_threads(None)] == errors


@pytest.mark.parametrize(("speed", "errors"), [(5.0, ["h2h.E007"]), (1.0, [])])
def test_a_quick_race_clock_faster_than_the_wall_clock_is_an_error(settings, speed, errors):
    settings.QUICK_RACE_SPEED = speed
    assert [e.id for e in checks.check_quick_race_runs_on_the_wall_clock(None)] == errors


def test_a_quick_race_clock_that_does_not_run_forward_refuses_to_start():
    outcome = run_manage("check", H2H_QUICK_RACE_SPEED="0")
    assert outcome.returncode != 0
    assert "H2H_QUICK_RACE_SPEED must be a number above 0" in outcome.stderr


@pytest.mark.django_db
def test_responses_carry_the_security_headers(client):
    response = client.get("/")
    assert response["X-Frame-Options"] == "DENY"
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["Referrer-Policy"] == "same-origin"
    policy = response["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "unsafe-inline" not in policy


SHOW_HTTPS = (
    "from django.conf import settings as s; print(s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE,"
    " s.LANGUAGE_COOKIE_SECURE, s.SECURE_SSL_REDIRECT)"
)


@pytest.mark.parametrize(("flag", "shown"), [("0", "True True True True"), ("1", "False " * 4)])
def test_only_a_plain_http_intranet_sends_cookies_without_secure(flag, shown):
    outcome = run_manage("shell", "-c", SHOW_HTTPS, H2H_ALLOW_HTTP_ORIGINS=flag)
    assert outcome.stdout.splitlines()[-1:] == [shown.strip()], outcome.stderr
