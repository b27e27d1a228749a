"""The operator's probes: /healthz and /readyz answer a load balancer whatever its Host and over
plain http, /readyz says which dependency fails (a database that refuses writes among them)
and is not kept waiting by the sockets listening on the channel layer, /metrics answers the
operator only, and daphne's access log leaves the probes out."""

import asyncio
import io
import time
from ipaddress import ip_network

import pytest
from daphne.access import AccessLogGenerator
from django.test import Client

from h2h_site import operations
from tests import faults
from tests.layers import fresh_channel_layer  # noqa: F401  (an autouse fixture)
from tests.site import connect

pytestmark = pytest.mark.django_db(transaction=True)

BALANCER = {"HTTP_HOST": "10.20.30.40:8001"}  # a balancer calls a process by its address
read_only_storage = faults.read_only_storage


@pytest.fixture
def production(settings):
    """The site's name only, and plain http redirected to https, as in production."""
    settings.ALLOWED_HOSTS = ["hearts.example.org"]
    settings.SECURE_SSL_REDIRECT = True


def test_healthz_answers_whatever_the_host_over_plain_http(production):
    client = Client()
    response = client.get("/healthz", **BALANCER)
    assert response.status_code == 200 and response.json() == {"status": "ok"}
    assert client.head("/healthz", **BALANCER).status_code == 200
    # The pages themselves still refuse the host and redirect plain http.
    assert client.get("/", **BALANCER).status_code == 400
    assert client.get("/", HTTP_HOST="hearts.example.org").status_code == 301


def test_readyz_answers_when_the_database_and_the_channel_layer_do(production):
    response = Client().get("/readyz", **BALANCER)
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": "ok", "channel_layer": "ok"}


def test_readyz_says_the_database_failed(production, monkeypatch):
    def broken():
        raise ConnectionRefusedError("connection refused")

    monkeypatch.setattr(operations, "_database_answers", broken)
    response = Client().get("/readyz", **BALANCER)
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "unavailable" and body["channel_layer"] == "ok"
    assert body["reason"] == "database: ConnectionRefusedError: connection refused"


def test_readyz_says_the_database_refuses_writes_and_is_ready_once_it_takes_them(
    production, read_only_storage
):
    # `SELECT 1` passes on a read-only database, where every move fails.
    read_only_storage.refuse()
    response = Client().get("/readyz", **BALANCER)
    assert response.status_code == 503
    assert response.json() == {
        "status": "unavailable",
        "reason": "database: database_read_only",
        "database": "database_read_only",
        "channel_layer": "ok",
    }
    read_only_storage.accept()
    assert Client().get("/readyz", **BALANCER).status_code == 200


@pytest.mark.redis
async def test_readyz_is_not_kept_waiting_by_a_socket_listening_on_the_channel_layer():
    # channels_redis lends a process's receive lock to one listening socket until a message
    # comes for one of its sockets: a probe that waited for the lock waited for ever.
    board = await connect("/ws/live/home/")
    await board.receive_json_from(timeout=5)  # its snapshot: it is listening now
    started = time.monotonic()
    checks = await operations.readiness()
    assert checks == {"database": "ok", "channel_layer": "ok"}
    assert time.monotonic() - started < operations.READY_WITHIN_S
    await board.disconnect()


def test_readyz_gives_up_on_a_silent_channel_layer_after_a_second(production, monkeypatch):
    async def never():
        await asyncio.sleep(30)

    monkeypatch.setattr(operations, "_channel_round_trip", never)
    response = Client().get("/readyz", **BALANCER)
    assert response.status_code == 503
    assert response.json()["reason"] == "channel_layer: no answer within 1 s"


def test_probes_take_no_writes():
    assert Client().post("/healthz").status_code == 405


# /metrics ---------------------------------------------------------------------------------


def metrics(address: str, **headers: str):
    return Client(REMOTE_ADDR=address).get("/metrics", **BALANCER, **headers)


def test_metrics_answer_a_scraper_on_loopback_in_the_prometheus_format(production):
    response = metrics("127.0.0.1")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/plain; version=")
    assert b"# TYPE h2h_reply_seconds histogram" in response.content
    assert b"process_resident_memory_bytes" in response.content
    assert metrics("::1").status_code == 200


def test_metrics_refuse_any_other_address():
    response = metrics("192.0.2.7")
    assert response.status_code == 403 and b"h2h_" not in response.content


def test_metrics_trust_the_peer_not_an_address_a_header_names():
    # Behind daphne's --proxy-headers REMOTE_ADDR is what the header said: a client's claim.
    assert metrics("127.0.0.1", HTTP_X_FORWARDED_FOR="127.0.0.1").status_code == 403


def test_metrics_answer_the_allowed_networks(settings):
    settings.METRICS_ALLOW = (ip_network("10.0.0.0/8"),)
    assert metrics("10.1.2.3").status_code == 200
    assert metrics("127.0.0.1").status_code == 403


def test_metrics_answer_the_bearer_token_from_anywhere(settings):
    settings.METRICS_TOKEN = "a-scraper-token-of-the-operator"
    allowed = metrics("192.0.2.7", HTTP_AUTHORIZATION="Bearer a-scraper-token-of-the-operator")
    assert allowed.status_code == 200 and b"h2h_open_sockets" in allowed.content
    assert metrics("192.0.2.7", HTTP_AUTHORIZATION="Bearer a-guess").status_code == 403
    assert metrics("192.0.2.7", HTTP_AUTHORIZATION="Bearer ").status_code == 403


def test_no_token_is_set_by_default_so_an_empty_bearer_opens_nothing():
    assert metrics("192.0.2.7", HTTP_AUTHORIZATION="Bearer ").status_code == 403


# daphne's access log ----------------------------------------------------------------------


def test_the_access_log_leaves_the_probes_out():
    stream = io.StringIO()
    log = operations.ProbesLeftOutOfTheAccessLog(AccessLogGenerator(stream))
    for path in ("/healthz", "/readyz", "/metrics", "/"):
        details = {"client": "127.0.0.1:5000", "method": "GET", "path": path}
        log("http", "complete", details | {"status": 200, "size": 2})
    assert [line.split('"')[1] for line in stream.getvalue().splitlines()] == ["GET /"]
