"""The site plus GET /bench/probe: what the soak benchmark watches inside the server process.

Served only by benchmarks (`daphne bench.probe:application`), never by the site itself.
The probe answers JSON: the event loop's tasks, the play sockets counted by game.sockets.play, the
in-memory channel layer's groups, members and channels, the threads, the open handles on
the SQLite file, and the resident memory.
"""

import asyncio
import gc
import json
import os
import threading
from collections import Counter

import psutil
from channels.layers import get_channel_layer
from django.conf import settings

from bench.soak import PROBE_PATH
from h2h_site.asgi import application as site


def probe() -> dict:
    from game.sockets.play import play_sockets
    from game.storage.appends import appends_statements_kept

    layer = get_channel_layer()
    groups = getattr(layer, "groups", {})
    database = str(settings.DATABASES["default"]["NAME"])
    process = psutil.Process(os.getpid())
    return {
        "tasks": len(asyncio.all_tasks()),
        "sockets": play_sockets.total(),
        "groups": len(groups),
        "group_members": sum(len(members) for members in groups.values()),
        "channels": len(getattr(layer, "channels", {})),
        "threads": threading.active_count(),
        "sqlite_handles": sum(f.path.startswith(database) for f in process.open_files()),
        "rss_mb": round(process.memory_info().rss / 2**20, 1),
        "sql_statements": appends_statements_kept(),
    }


def object_counts(top: int = 25) -> dict:
    """The most numerous object types in the process (slow: for hunting a leak)."""
    counts = Counter(type(obj).__qualname__ for obj in gc.get_objects())
    return dict(counts.most_common(top))


async def application(scope, receive, send):
    if scope["type"] == "http" and scope["path"] == PROBE_PATH:
        query = scope.get("query_string", b"").split(b"&")
        if b"collect" in query:  # a full collection first: garbage is not a leak
            gc.collect()
        report = probe()
        if b"objects" in query:
            report["objects"] = object_counts()
        body = json.dumps(report).encode()
        headers = [(b"content-type", b"application/json")]
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        await send({"type": "http.response.body", "body": body})
        return
    await site(scope, receive, send)
