"""What a server process counts for its operator, served at /metrics (h2h_site.operations).

Every metric lives in prometheus-client's default registry, so /metrics also shows the
process's own (memory, CPU, open files, the collector). Each daphne process counts for itself
and serves its own counts: a scraper scrapes every process (docs/deployment.md, "Metrics").

The tap path moves these with a counter's or a histogram's own update and nothing else: the
children of each label set are looked up once (per socket kind, per event), not per frame.
What the storage and the services do is counted here too, from the signals they send
(game.storage.signals, game.services.signals): they never import the runtime.
docs/protocol.md, "Operations", lists every metric.
"""

from functools import cache
from typing import NamedTuple

from django.db import transaction
from django.dispatch import receiver
from prometheus_client import Counter, Gauge, Histogram

from game.services.signals import result_flagged, result_recorded
from game.storage.signals import (
    layer_answering,
    layer_call_failed,
    layer_call_skipped,
    moves_stored,
)

# Seconds from a frame's arrival to its reply: a tap answered from memory takes well under a
# millisecond, one that waits for a group commit a few; the top buckets are the stalls.
REPLY_BUCKETS = (0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
COMMIT_BUCKETS = (0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1.0)
BATCH_BUCKETS = (1, 2, 4, 8, 16, 32, 64, 128, 200)  # up to game.storage.dbthread.MAX_BATCH

OPEN_SOCKETS = Gauge("h2h_open_sockets", "Websockets open on this process", ["socket"])
REPLY_SECONDS = Histogram(
    "h2h_reply_seconds",
    "From a frame received to its reply sent, by socket kind",
    ["socket"],
    buckets=REPLY_BUCKETS,
)
ERROR_FRAMES = Counter("h2h_error_frames", "Error frames sent, by their code", ["socket", "code"])
PLAY_EVENTS = Counter(
    "h2h_play_events", "What each play frame did (a tap's event, start, undo, ...)", ["event"]
)
DB_BATCH_MOVES = Histogram(
    "h2h_db_batch_moves", "Moves stored by one group commit", buckets=BATCH_BUCKETS
)
DB_COMMIT_SECONDS = Histogram(
    "h2h_db_commit_seconds", "One group commit of moves in the database", buckets=COMMIT_BUCKETS
)
RESULTS = Counter("h2h_results", "Results stored, by how the game ended", ["status"])
RESULT_FLAGS = Counter("h2h_result_flags", "Results flagged for review, by reason", ["reason"])
PAR_SEARCHES = Counter(
    "h2h_par_searches", "Par searches after a game's end, by outcome", ["outcome"]
)
PAR_WAITING = Gauge("h2h_par_waiting", "Deal codes waiting for their par search")


class SocketMeters(NamedTuple):
    """One socket kind's metrics, its label already applied."""

    kind: str
    open: Gauge
    reply_seconds: Histogram

    def error_frame(self, code: str) -> None:
        ERROR_FRAMES.labels(self.kind, code).inc()


@cache
def socket_meters(kind: str) -> SocketMeters:
    """The metrics of the sockets of `kind` (play, boards, watch, race)."""
    return SocketMeters(kind, OPEN_SOCKETS.labels(kind), REPLY_SECONDS.labels(kind))


@cache
def _play_event(event: str) -> Counter:
    return PLAY_EVENTS.labels(event)


def play_event(event: str) -> None:
    """Count what one play frame did; the events are the server's own few names."""
    _play_event(event).inc()


CHANNEL_LAYER_ERRORS = Counter(
    "h2h_channel_layer_errors",
    "Channel-layer calls that failed or timed out (logged and dropped), by operation",
    ["op"],
)
CHANNEL_LAYER_SKIPPED = Counter(
    "h2h_channel_layer_skipped",
    "Channel-layer calls not made because the layer was down, by operation",
    ["op"],
)
CHANNEL_LAYER_UP = Gauge(
    "h2h_channel_layer_up", "1 while this process finds the channel layer answering, else 0"
)
CHANNEL_LAYER_UP.set(1)


@receiver(layer_call_failed, dispatch_uid="metrics")
def _layer_call_failed(*, op: str, **_) -> None:
    CHANNEL_LAYER_ERRORS.labels(op).inc()


@receiver(layer_call_skipped, dispatch_uid="metrics")
def _layer_call_skipped(*, op: str, **_) -> None:
    CHANNEL_LAYER_SKIPPED.labels(op).inc()


@receiver(layer_answering, dispatch_uid="metrics")
def _layer_answering(*, up: bool, **_) -> None:
    CHANNEL_LAYER_UP.set(1 if up else 0)


@receiver(moves_stored, dispatch_uid="metrics")
def _moves_stored(*, moves: int, seconds: float, **_) -> None:
    DB_BATCH_MOVES.observe(moves)
    DB_COMMIT_SECONDS.observe(seconds)


@receiver(result_recorded, dispatch_uid="metrics")
def _result_recorded(*, status: str, **_) -> None:
    transaction.on_commit(RESULTS.labels(status).inc)  # a result rolled back is not counted


@receiver(result_flagged, dispatch_uid="metrics")
def _result_flagged(*, reason: str, **_) -> None:
    transaction.on_commit(RESULT_FLAGS.labels(reason).inc)
