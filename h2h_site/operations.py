"""What the operator's machines ask a server process: /healthz, /readyz and /metrics.

`ProbesMiddleware` answers them right after SecurityMiddleware, before anything else looks at
the request. So they are never throttled, need no session, and answer whatever the `Host`:
a load balancer calls a process by its address, and a scraper each daphne port, neither by
the site's name. Django's host validation (ALLOWED_HOSTS, first applied by CommonMiddleware)
guards what a page builds from `Host` (links, redirects, e-mails); these answers build
nothing from it, and naming the balancer's address in ALLOWED_HOSTS would let the whole site
answer under it. SECURE_REDIRECT_EXEMPT (settings) keeps SecurityMiddleware from redirecting
them to https: a balancer checks over plain http.

/metrics is for the operator only: from an address of H2H_METRICS_ALLOW (the TCP peer itself,
never an address a header names) or with the bearer token H2H_METRICS_TOKEN. docs/protocol.md,
"Operations", gives the answers; docs/deployment.md how to use them.
"""

import asyncio
import hmac
import ipaddress
import sqlite3

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import DatabaseError, connection
from django.db.migrations.recorder import MigrationRecorder
from django.http import HttpResponse, HttpResponseNotAllowed, JsonResponse
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

from game.storage.dbthread import on_db_thread

PROBE_PATHS = ("/healthz", "/readyz", "/metrics")
READY_WITHIN_S = 1.0
READ_ONLY = "database_read_only"
READ_ONLY_SQLSTATE = "25006"  # PostgreSQL's read_only_sql_transaction


def healthz(request) -> HttpResponse:
    """The process answers: nothing else is asked."""
    return JsonResponse({"status": "ok"})


def readyz(request) -> HttpResponse:
    """The database takes a write and the channel layer carries a message, within 1 s each;
    503 with the reason otherwise."""
    checks = async_to_sync(readiness)()
    failed = {name: problem for name, problem in checks.items() if problem != "ok"}
    if failed:
        reason = "; ".join(f"{name}: {problem}" for name, problem in failed.items())
        return JsonResponse({"status": "unavailable", "reason": reason, **checks}, status=503)
    return JsonResponse({"status": "ok", **checks})


async def readiness() -> dict[str, str]:
    """{"database": ..., "channel_layer": ...}: "ok", or what went wrong, checked together."""
    names = ("database", "channel_layer")
    outcomes = await asyncio.gather(
        _within(_database_takes_writes()), _within(_channel_round_trip())
    )
    return dict(zip(names, outcomes, strict=True))


class Refused(Exception):
    """A dependency that answers but will not do what the site needs; its reason is its text."""


async def _within(check) -> str:
    try:
        async with asyncio.timeout(READY_WITHIN_S):
            await check
    except TimeoutError:
        return f"no answer within {READY_WITHIN_S:g} s"
    except Refused as refusal:
        return str(refusal)
    except Exception as error:  # any failure of a dependency is a reason to say, not a crash
        return f"{type(error).__name__}: {error}"
    return "ok"


async def _database_takes_writes() -> None:
    """On the sockets' database workers; one that failed has closed its connection, so the
    next check opens a new one and sees a database that takes writes again."""
    try:
        await on_db_thread(_database_answers)()
    except DatabaseError as error:
        if refuses_writes(error):
            raise Refused(READ_ONLY) from error
        raise


def _database_answers() -> None:
    """A write that changes nothing, as one statement of its own. `SELECT 1` passes on a
    database that takes no writes (a PostgreSQL standby or default_transaction_read_only, a
    read-only SQLite file, PRAGMA query_only), where every move would fail; this does not.
    On SQLite it waits for the writer in hand, as a move would."""
    table = connection.ops.quote_name(MigrationRecorder.Migration._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(f"UPDATE {table} SET id = id WHERE 1 = 0")


def refuses_writes(error: DatabaseError) -> bool:
    """Whether the driver's error under Django's says the database is read-only."""
    driver_error = error.__cause__
    if getattr(driver_error, "sqlstate", None) == READ_ONLY_SQLSTATE:
        return True
    code = getattr(driver_error, "sqlite_errorcode", 0)  # extended: the low byte is the code
    return code & 0xFF == sqlite3.SQLITE_READONLY


async def _channel_round_trip() -> None:
    """A message to this process and back, on the path its sockets' messages take.

    channels_redis carries all of a process's socket messages on one Redis list, read by
    whichever of its receives holds the process's receive lock; that receive keeps the lock
    until a message comes, however long. So the probe's message goes on that list (a channel
    of the sockets' prefix): the receive in hand reads it at once and hands it over. On a list
    of its own it would wait for the lock behind every listening socket, until each ahead of it
    had had a message: for ever on an idle process, seconds under play.
    """
    layer = get_channel_layer()
    channel = await layer.new_channel()
    await layer.send(channel, {"type": "readyz"})
    await layer.receive(channel)


def metrics(request) -> HttpResponse:
    """This process's metrics in the Prometheus text format, to the operator only."""
    if not metrics_allowed(request):
        return HttpResponse(
            "Metrics are served to H2H_METRICS_ALLOW addresses and the H2H_METRICS_TOKEN.\n",
            status=403,
            content_type="text/plain",
        )
    return HttpResponse(generate_latest(), content_type=CONTENT_TYPE_LATEST)


def metrics_allowed(request) -> bool:
    """The bearer token, or an allowed TCP peer.

    Behind nginx daphne's --proxy-headers makes REMOTE_ADDR the address X-Forwarded-For names,
    which a client can write. So an address counts only on a request without that header: then
    REMOTE_ADDR is the peer that connected (daphne keeps it when the header is absent).
    """
    token = settings.METRICS_TOKEN
    sent = request.headers.get("Authorization", "")
    if token and hmac.compare_digest(sent.encode(), f"Bearer {token}".encode()):
        return True
    if "x-forwarded-for" in request.headers:
        return False
    return peer_allowed(request.META.get("REMOTE_ADDR", ""), settings.METRICS_ALLOW)


def peer_allowed(address: str, allowed) -> bool:
    """True if `address` is in one of the `allowed` networks (an IPv4-mapped IPv6 address as
    the IPv4 address it carries).

    >>> from ipaddress import ip_network as net
    >>> local, office = [net("127.0.0.1")], [net("10.0.0.0/24")]
    >>> peer_allowed("127.0.0.1", local), peer_allowed("10.0.0.7", office)
    (True, True)
    >>> peer_allowed("::ffff:127.0.0.1", [net("127.0.0.1")]), peer_allowed("unknown", [net("::1")])
    (True, False)
    """
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    ip = getattr(ip, "ipv4_mapped", None) or ip
    return any(ip in network for network in allowed)


PROBES = {"/healthz": healthz, "/readyz": readyz, "/metrics": metrics}


class ProbesMiddleware:
    """Answers the probe paths itself (GET or HEAD); every other request goes on."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        probe = PROBES.get(request.path_info)
        if probe is None:
            return self.get_response(request)
        if request.method not in ("GET", "HEAD"):
            return HttpResponseNotAllowed(["GET", "HEAD"])
        return probe(request)


class ProbesLeftOutOfTheAccessLog:
    """A daphne access log without the probes' lines: a balancer's checks every few seconds
    and a scraper's every few would otherwise bury the players' requests."""

    def __init__(self, log) -> None:
        self.log = log

    def __call__(self, protocol, action, details) -> None:
        if protocol == "http" and details.get("path") in PROBE_PATHS:
            return
        self.log(protocol, action, details)


def keep_probes_out_of_the_access_log() -> None:
    """daphne writes its access log straight to a stream (not through `logging`, so no logging
    filter reaches it), from the AccessLogGenerator its command line builds once it has loaded
    the application: wrap that class so each log it makes leaves the probes out."""
    try:
        from daphne import cli
    except ImportError:  # served without daphne
        return
    if getattr(cli.AccessLogGenerator, "leaves_probes_out", False):
        return
    make = cli.AccessLogGenerator

    def access_log(stream):
        return ProbesLeftOutOfTheAccessLog(make(stream))

    access_log.leaves_probes_out = True
    cli.AccessLogGenerator = access_log
