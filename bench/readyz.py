"""Does /readyz tell the truth? Probes every server process while players play, and through
a read-only database and a Redis restart.

    python -m bench.readyz --database-url postgres://postgres@127.0.0.1:5432/h2h_readyz \\
        [--redis-url redis://127.0.0.1:6379/7] [--players 30] [--processes 2] [--seconds 60] \\
        [--trial play|database|redis|all] [--keep-sessions]

Each trial starts its own daphnes on a fresh database, signs the players up and has them play
at a person's pace (a tap every 250-750 ms; a closed socket reconnects to a new game) while
each process is asked GET /readyz every PROBE_EVERY_S (tests/harness/readyz.py's `trial`).
It prints one JSON object per trial:

- `play`: --seconds of play; how many probes answered 200 within 1 s, their latency, and
  the reasons of the others.
- `database`: the database made read-only (`default_transaction_read_only`, its sessions
  ended) for FAULT_S, then writable again (its sessions ended again: a session keeps the
  setting it started with; --keep-sessions leaves them); how long each process took to say
  `database_read_only`, and to answer 200 again after the database came back.
- `redis`: a redis-server of the trial's own (on a free port; never the machine's) stopped for
  FAULT_S and started again on the same port; the same two figures.

The play and database trials use --redis-url, or that redis-server of the bench's own.
"""

import argparse
import asyncio
import json
import os
import tempfile
from collections import Counter
from pathlib import Path

import psycopg

from tests.harness.figures import percentile
from tests.harness.readyz import (
    PROBE_EVERY_S,
    Probe,
    Run,
    answer,
    ready,
    recovery_seconds,
    trial,
)
from tests.harness.redis_server import Redis
from tests.harness.server import (
    Server,
    fresh_database,
    make_players,
    manage,
    name_and_admin,
    server_env,
)

WARM_UP_S = 5.0  # play before a fault starts
FAULT_S = 10.0
AFTER_S = 10.0  # play after the fault ends


# The faults ----------------------------------------------------------------------------------


def database_writable(url: str, writable: bool, *, end_sessions: bool = True) -> None:
    """The database's default for new sessions, and its sessions ended so that they take it."""
    name, admin = name_and_admin(url)
    setting = "off" if writable else "on"
    with psycopg.connect(admin, autocommit=True) as connection:
        connection.execute(f'ALTER DATABASE "{name}" SET default_transaction_read_only = {setting}')
        if not end_sessions:
            return
        connection.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = %s AND pid <> pg_backend_pid()",
            [name],
        )


# A trial -------------------------------------------------------------------------------------


def started_servers(args, redis_url: str, workdir: Path) -> tuple[list[Server], list[dict]]:
    env = server_env(
        sqlite_path=str(workdir / "unused.sqlite3"),
        database_url=args.database_url,
        redis_url=redis_url,
        H2H_WORKERS=str(args.processes),
    )
    fresh_database(args.database_url)
    manage(env, "migrate", "--noinput")
    players = make_players(env, args.players, prefix="ready")
    logs = [str(workdir / f"daphne{n}.log") for n in range(args.processes)]
    return [Server(env, log_path=log).start() for log in logs], players


async def timed_fault(run: Run, begin, end) -> dict:
    """Warm up, `begin()` the fault, hold it FAULT_S, `end()` it, and play AFTER_S more."""
    await asyncio.sleep(WARM_UP_S)
    began = run.now()
    await asyncio.to_thread(begin)
    await asyncio.sleep(FAULT_S)
    await asyncio.to_thread(end)
    ended = run.now()
    await asyncio.sleep(AFTER_S)
    return {"began": began, "ended": ended}


def latency_figures(probes: list[Probe]) -> dict:
    latencies = [probe.seconds * 1000 for probe in probes]
    return {
        "probe_p50_ms": round(percentile(latencies, 0.5), 1),
        "probe_p99_ms": round(percentile(latencies, 0.99), 1),
        "probe_max_ms": round(max(latencies, default=0.0), 1),
    }


def play_figures(run: Run) -> dict:
    answered = sum(ready(probe) for probe in run.probes)
    reasons = Counter(answer(probe) for probe in run.probes if not ready(probe))
    return {
        "probes": len(run.probes),
        "ready_within_1s": answered,
        "ready_share": round(answered / max(1, len(run.probes)), 4),
        **latency_figures(run.probes),
        "other_answers": dict(reasons.most_common(5)),
        "taps": run.taps,
        "reconnects": run.reconnects,
    }


def fault_figures(run: Run, times: dict, processes: int, says: str) -> dict:
    """Per process: seconds from the fault's start to a probe's reason naming `says`, and from
    its end to the first probe answering 200 after which every probe did."""
    detected, recovered = [], []
    for number in range(processes):
        mine = [probe for probe in run.probes if probe.process == number]
        during = [p for p in mine if times["began"] <= p.at < times["ended"]]
        naming = [p.at + p.seconds - times["began"] for p in during if says in p.reason]
        detected.append(round(min(naming), 2) if naming else None)
        recovered.append(recovery_seconds(mine, times["ended"]))
    after = [probe for probe in run.probes if probe.at >= times["ended"]]
    return {
        "fault_s": FAULT_S,
        "detected_s": detected,
        "ready_again_s": recovered,
        "reasons_during": dict(
            Counter(
                answer(p) for p in run.probes if times["began"] <= p.at < times["ended"]
            ).most_common(5)
        ),
        "ready_within_1s_after": f"{sum(map(ready, after))}/{len(after)}",
        "taps": run.taps,
        "reconnects": run.reconnects,
    }


# The trials ----------------------------------------------------------------------------------


def play_trial(args, redis_url: str, workdir: Path) -> dict:
    servers, players = started_servers(args, redis_url, workdir)
    try:
        run, _ = asyncio.run(trial(servers, players, seconds=args.seconds))
    finally:
        for server in servers:
            server.stop()
    return {"trial": "play", "seconds": args.seconds, **play_figures(run)}


def database_trial(args, redis_url: str, workdir: Path) -> dict:
    servers, players = started_servers(args, redis_url, workdir)

    async def read_only(run: Run) -> dict:
        def begin():
            database_writable(args.database_url, False)

        def end():
            database_writable(args.database_url, True, end_sessions=not args.keep_sessions)

        return await timed_fault(run, begin, end)

    try:
        run, times = asyncio.run(trial(servers, players, read_only, seconds=0))
    finally:
        database_writable(args.database_url, True)
        for server in servers:
            server.stop()
    figures = fault_figures(run, times, len(servers), "database_read_only")
    return {"trial": "database_read_only", **figures}


def redis_trial(args, workdir: Path) -> dict:
    own = Redis().start()
    servers, players = started_servers(args, own.url, workdir)

    async def stopped(run: Run) -> dict:
        return await timed_fault(run, own.stop, own.start)

    try:
        run, times = asyncio.run(trial(servers, players, stopped, seconds=0))
    finally:
        for server in servers:
            server.stop()
        own.stop()
    return {"trial": "redis_restart", **fault_figures(run, times, len(servers), "channel_layer")}


def arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database-url", required=True, help="a PostgreSQL database's URL")
    parser.add_argument("--redis-url", default="", help="default: a redis-server of our own")
    parser.add_argument("--players", type=int, default=30)
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--trial", choices=["play", "database", "redis", "all"], default="all")
    parser.add_argument(
        "--keep-sessions",
        action="store_true",
        help="the database trial makes the database writable again without ending its sessions",
    )
    return parser.parse_args()


def main() -> None:
    args, workdir = arguments(), Path(tempfile.mkdtemp(prefix="h2h-readyz-"))
    config = {"players": args.players, "processes": args.processes, "probe_every_s": PROBE_EVERY_S}
    own = None if args.redis_url else Redis().start()
    redis_url = args.redis_url or own.url
    trials = {
        "play": lambda: play_trial(args, redis_url, workdir),
        "database": lambda: database_trial(args, redis_url, workdir),
        "redis": lambda: redis_trial(args, workdir),
    }
    try:
        for name, trial_of in trials.items():
            if args.trial in (name, "all"):
                result = trial_of() | config | {"load_average": round(os.getloadavg()[0], 2)}
                print(json.dumps(result), flush=True)
    finally:
        if own is not None:
            own.stop()


if __name__ == "__main__":
    main()
