"""Production settings pass Django's deploy checks and ours refuse the unsafe set-ups."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.test import override_settings

from game import checks

ROOT = Path(__file__).resolve().parents[2]
PRODUCTION_ENV = {
    "H2H_DEBUG": "0",
    "H2H_SECRET_KEY": "a-production-secret-key-that-is-long-and-random-0123456789abcdef",
    "H2H_ALLOWED_HOSTS": "hearts.example.org",
    "H2H_DEAL_KEY": "a-private-deal-key-of-more-than-thirty-two-chars",
}


def run_deploy_check(*, without: tuple[str, ...] = (), **overrides: str):
    env = {**os.environ, **PRODUCTION_ENV, **overrides}
    for name in without:
        env.pop(name, None)
    command = [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"]
    return subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)


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


@override_settings(ALLOWED_HOSTS=["*"])
def test_a_wildcard_allowed_host_is_an_error():
    assert [e.id for e in checks.check_allowed_hosts_are_named(None)] == ["h2h.E001"]


@pytest.mark.parametrize("key", ["short-key", checks.DEFAULT_DEAL_KEY])
def test_a_short_or_public_deal_key_is_an_error(key):
    with override_settings(DEAL_KEY=key):
        assert [e.id for e in checks.check_deal_key_is_private(None)] == ["h2h.E002"]


def test_a_long_private_deal_key_passes():
    with override_settings(DEAL_KEY=PRODUCTION_ENV["H2H_DEAL_KEY"]):
        assert checks.check_deal_key_is_private(None) == []


@pytest.mark.filterwarnings("ignore:Overriding setting DATABASES")  # only the check reads it
def test_kept_database_connections_are_an_error(settings):
    settings.DATABASES = {"default": {**settings.DATABASES["default"], "CONN_MAX_AGE": 60}}
    assert [e.id for e in checks.check_connections_are_not_kept(None)] == ["h2h.E004"]


@pytest.mark.django_db
def test_responses_carry_the_security_headers(client):
    response = client.get("/")
    assert response["X-Frame-Options"] == "DENY"
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["Referrer-Policy"] == "same-origin"
    policy = response["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "unsafe-inline" not in policy
