"""Faults injected into the scaled site while players play, measured in one table:

    python -m bench.faults [--players 30] [--fault-seconds S] [--storm-sockets 200] \\
        [--trials kill redis postgres_restart postgres_pause read_only storm] [--json FILE]
    python -m bench.faults --short      # 10 players, 5 s faults, a storm of 50: CI's scaled pass

The suite needs nothing of the machine's but its programs: it starts a PostgreSQL of its own
(initdb into a temporary folder, on a free port; as root it runs as the `postgres` user, since
initdb refuses root: tests/harness/postgres_server.py) and a redis-server of its own on a free
port, two production daphnes on them with the h2h@ unit's command line, and the deployment
kit's nginx in front (tests/harness/nginx.py), the static files collected.

Each trial has the players play through nginx over wss:// (tests/harness/faults.py: a game of
their own each, a tap every 250-750 ms) for WARM_UP_S, then the fault, then AFTER_S more:

- kill: one daphne killed (kill -9) and started again 2 s later, as the unit's RestartSec=2;
- redis: the redis-server stopped for the fault's seconds (default 20) and started again;
- postgres_restart: `pg_ctl restart -m fast`;
- postgres_pause: every PostgreSQL process stopped with SIGSTOP (default 10 s), then SIGCONT;
- read_only: the database read-only (default 10 s), as docs/reliability.md's probe trial makes
  it: `ALTER DATABASE ... SET default_transaction_read_only`, its sessions ended at both turns;
- storm: --storm-sockets more players, one play socket each with a move stored, and each daphne
  killed and restarted in turn (tests/harness/reconnect_storm.py), the players playing on.

It prints the table (tests/harness/faults.py says what each figure is), writes every figure to
--json if given, and exits non-zero if an acknowledged move was lost, a player was locked out
or refused a socket afterwards, or a socket closed with 1011.
"""

import argparse
import contextlib
import functools
import json
import os
import signal
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from bench.readyz import database_writable
from game.engine import format_code
from tests.harness.faults import (
    LOCKED_OUT_AFTER_S,
    Trial,
    figures,
    games_of,
    moves_stored,
    places_refused,
    played,
    problems,
    table,
)
from tests.harness.nginx import kit_nginx
from tests.harness.postgres_server import Postgres
from tests.harness.reconnect_storm import (
    RESTART_AFTER_S,
    Site,
    Storm,
    clients_loop,
    kit_env,
    kit_site,
    storm,
    storm_codes,
)
from tests.harness.redis_server import Redis
from tests.harness.server import manage

WARM_UP_S = 3.0
AFTER_S = LOCKED_OUT_AFTER_S + 1.0  # play after the fault: whoever is locked out shows
TRIAL_SEEDS = 7_000_000  # the players' deals: a thousand codes a trial from here
STORM_NUMBER = 90  # the storm's deals (reconnect_storm.storm_codes), none a trial's
SETTING_UP_S = 120.0
LABELS = {
    "kill": "kill -9 of one process",
    "redis": "Redis stopped",
    "postgres_restart": "PostgreSQL restarted (pg_ctl restart -m fast)",
    "postgres_pause": "PostgreSQL paused (SIGSTOP)",
    "read_only": "database read-only",
    "storm": "reconnect storm",
}
FULL = {"players": 30, "fault_seconds": None, "storm_sockets": 200}
SHORT = {"players": 10, "fault_seconds": 5.0, "storm_sockets": 50}
HELD_S = {"redis": 20.0, "postgres_pause": 10.0, "read_only": 10.0}  # the faults held a while


@dataclass
class Suite:
    workdir: Path  # the daphnes' and nginx's logs
    postgres: Postgres
    redis: Redis
    database_url: str
    site: Site  # the players'
    storm_site: Site  # the storm's sockets', on the same daphnes
    fault_seconds: float | None


# The faults: each runs in the main thread, which started the daphnes (they die with it), and
# returns when it began and ended (time.monotonic()) --------------------------------------------


def held(begin, end, seconds: float) -> tuple[float, float]:
    began = time.monotonic()
    begin()
    time.sleep(seconds)
    end()
    return began, time.monotonic()


def held_for(suite: Suite, name: str) -> float:
    return HELD_S[name] if suite.fault_seconds is None else suite.fault_seconds


def kill(suite: Suite, trial: Trial) -> tuple[float, float]:
    victim = suite.site.daphnes[0]
    return held(victim.kill, victim.start, RESTART_AFTER_S)


def redis_stopped(suite: Suite, trial: Trial) -> tuple[float, float]:
    return held(suite.redis.stop, suite.redis.start, held_for(suite, "redis"))


def postgres_restarted(suite: Suite, trial: Trial) -> tuple[float, float]:
    return held(suite.postgres.restart, lambda: None, 0)


def postgres_paused(suite: Suite, trial: Trial) -> tuple[float, float]:
    pause, resume = suite.postgres.pause, suite.postgres.resume
    return held(pause, resume, held_for(suite, "postgres_pause"))


def read_only(suite: Suite, trial: Trial) -> tuple[float, float]:
    writable = functools.partial(database_writable, suite.database_url)
    return held(lambda: writable(False), lambda: writable(True), held_for(suite, "read_only"))


def reconnect_storm(suite: Suite, trial: Trial) -> tuple[float, float]:
    """The storm's sockets join the trial: their resumes, those never greeted again, and their
    one move each, acknowledged before the kills."""
    run, sockets = Storm(), suite.storm_site
    storm(sockets, STORM_NUMBER, run)
    trial.resumes += [seconds for kill in run.kills for seconds in kill.resumed]
    trial.not_resumed += sum(kill.closed - len(kill.resumed) for kill in run.kills)
    names = [player["name"] for player in sockets.players]
    games = games_of(suite.database_url, names, storm_codes(STORM_NUMBER, len(names)))
    trial.acknowledged |= {game or name: 1 for name, game in zip(names, games, strict=True)}
    return run.kills[0].at, run.restarted


FAULTS = {
    "kill": kill,
    "redis": redis_stopped,
    "postgres_restart": postgres_restarted,
    "postgres_pause": postgres_paused,
    "read_only": read_only,
    "storm": reconnect_storm,
}


# A trial -------------------------------------------------------------------------------------


def run_trial(suite: Suite, number: int, name: str) -> dict:
    """The players play, the fault runs, they play on; then every player opens the sockets a
    process allows on each, and the database is read: the trial's figures."""
    trial = Trial(LABELS[name], len(suite.site.players))
    codes = [format_code("N", TRIAL_SEEDS + 1_000 * number + n) for n in range(trial.players)]
    with clients_loop() as call:
        playing = call(played(suite.site, trial, codes))
        time.sleep(WARM_UP_S)
        began, ended = FAULTS[name](suite, trial)
        trial.began, trial.ended = began - trial.clock.started, ended - trial.clock.started
        time.sleep(AFTER_S)
        trial.clock.done = True
        playing.result(timeout=SETTING_UP_S)
        time.sleep(1)  # the processes hear every socket leave
        trial.refused_a_place = call(places_refused(suite.site)).result(timeout=SETTING_UP_S)
    games = [game for game in trial.acknowledged if isinstance(game, int)]
    trial.stored = moves_stored(suite.database_url, games)
    return figures(trial)


# The suite -----------------------------------------------------------------------------------


@contextlib.contextmanager
def started_suite(args: argparse.Namespace):
    """PostgreSQL, Redis, two daphnes and nginx, each stopped at the end."""
    workdir = Path(tempfile.mkdtemp(prefix="h2h-faults-"))
    with contextlib.ExitStack() as stack:
        postgres = Postgres()
        stack.callback(postgres.stop)
        redis = Redis().start()
        stack.callback(redis.stop)
        url = postgres.start().url("h2h_faults")
        env = kit_env(workdir, url, redis.url)
        manage(env, "collectstatic", "--noinput")
        site = kit_site(env, workdir, args.players + args.storm_sockets, prefix="fault")
        for daphne in site.daphnes:
            stack.callback(daphne.stop)
        nginx, site.https_port = kit_nginx(workdir, [daphne.port for daphne in site.daphnes])
        stack.callback(nginx.stop)
        players, storm_players = site.players[: args.players], site.players[args.players :]
        site.players = players
        storm_site = Site(site.daphnes, storm_players, site.https_port)
        yield Suite(workdir, postgres, redis, url, site, storm_site, args.fault_seconds)


def arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--short", action="store_true", help="CI's form: 10 players, 5 s faults")
    parser.add_argument("--players", type=int)
    parser.add_argument("--fault-seconds", type=float, help="default: Redis 20, the database 10")
    parser.add_argument("--storm-sockets", type=int)
    parser.add_argument("--trials", nargs="+", choices=list(FAULTS), default=list(FAULTS))
    parser.add_argument("--json", type=Path, help="a file for every figure")
    args = parser.parse_args()
    for key, value in (SHORT if args.short else FULL).items():
        if getattr(args, key) is None:
            setattr(args, key, value)
    return args


def main() -> None:
    args, started = arguments(), time.monotonic()
    # A run stopped by SIGTERM stops its PostgreSQL and nginx too (the daphnes and Redis die
    # with it anyway).
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    with started_suite(args) as suite:
        rows = [run_trial(suite, n, name) for n, name in enumerate(args.trials)]
    print(table(rows), flush=True)
    found = [problem for row in rows for problem in problems(row)]
    seconds = round(time.monotonic() - started)
    config = vars(args) | {"json": str(args.json), "seconds": seconds, "logs": str(suite.workdir)}
    if args.json:
        args.json.write_text(json.dumps({"config": config, "trials": rows, "problems": found}))
    print(f"{len(rows)} trials in {seconds} s on {os.cpu_count()} CPUs; logs in {suite.workdir}")
    print(
        "problems:", "; ".join(found) if found else "none", file=sys.stderr if found else sys.stdout
    )
    sys.exit(1 if found else 0)


if __name__ == "__main__":
    main()
