"""Page requests on PostgreSQL: what a database connection per request costs, and the pool.

    python -m bench.page_requests [--database-url URL] [--seconds 5] [--clients 8] [--rounds 3]

One production-like daphne process on PostgreSQL serves logged-in players their home page
(a session, a user, their profile and their day: several queries), first with
H2H_DB_POOL_SIZE=0 (a connection opened and closed for every request), then with the default
pool, in turns, `--rounds` times. Prints one JSON object per set-up and round: the median
latency of sequential requests, requests per second with `--clients` concurrent clients, and
the PostgreSQL sessions the server opened per request (pg_stat_database.sessions); then the
medians of the rounds.
"""

import argparse
import http.client
import json
import statistics
import tempfile
import threading
import time

from tests.harness.pages import get_page
from tests.harness.server import (
    Server,
    fresh_database,
    make_players,
    manage,
    server_env,
    sessions_opened,
)

DATABASE_URL = "postgres://postgres@127.0.0.1:5432/h2h_bench_pages"
PAGE = "/"
SEQUENTIAL = 200


def sequential_ms(port: int, session_key: str) -> float:
    connection, took = http.client.HTTPConnection("127.0.0.1", port), []
    for _ in range(SEQUENTIAL):
        started = time.perf_counter()
        get_page(connection, session_key, PAGE)
        took.append((time.perf_counter() - started) * 1000)
    connection.close()
    return statistics.median(took)


def concurrent_per_s(port: int, session_keys: list[str], seconds: float) -> float:
    deadline, counts = time.monotonic() + seconds, [0] * len(session_keys)

    def client(index: int) -> None:
        connection = http.client.HTTPConnection("127.0.0.1", port)
        while time.monotonic() < deadline:
            get_page(connection, session_keys[index], PAGE)
            counts[index] += 1
        connection.close()

    threads = [threading.Thread(target=client, args=(i,)) for i in range(len(session_keys))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return sum(counts) / seconds


def measure(env: dict, url: str, keys: list[str], seconds: float, pool: str) -> dict:
    with Server({**env, "H2H_DB_POOL_SIZE": pool}) as server:
        get_page(http.client.HTTPConnection("127.0.0.1", server.port), keys[0], PAGE)  # warm up
        before = sessions_opened(url)
        latency = sequential_ms(server.port, keys[0])
        opened = (sessions_opened(url) - before) / SEQUENTIAL
        rate = concurrent_per_s(server.port, keys, seconds)
    return {
        "pool_size": int(pool),
        "sequential_p50_ms": round(latency, 2),
        "sessions_per_request": round(opened, 3),
        "concurrent_per_s": round(rate, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--database-url", default=DATABASE_URL)
    parser.add_argument("--seconds", type=float, default=5)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    fresh_database(args.database_url)
    env = server_env(sqlite_path=tempfile.mktemp(), database_url=args.database_url)
    manage(env, "migrate", "--noinput")
    keys = [player["sessionid"] for player in make_players(env, args.clients)]
    runs: dict[str, list[dict]] = {"0": [], "20": []}
    for _ in range(args.rounds):
        for pool, results in runs.items():
            results.append(measure(env, args.database_url, keys, args.seconds, pool))
            print(json.dumps(results[-1]), flush=True)
    for results in runs.values():
        print(json.dumps({"median_of": len(results), **_medians(results)}))


def _medians(results: list[dict]) -> dict:
    return {name: statistics.median(r[name] for r in results) for name in results[0]}


if __name__ == "__main__":
    main()
