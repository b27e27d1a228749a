"""A reconnect storm through the deployment kit's nginx, measured:

    python -m bench.reconnect_storm --database-url postgres://postgres@127.0.0.1:5432/h2h_storm \\
        [--redis-url redis://127.0.0.1:6379/6] [--sockets 200] [--runs 5] [--nginx deploy/nginx]

Two production daphnes (the h2h@ unit's command line) on PostgreSQL and Redis (--redis-url, or a
redis-server of the bench's own) behind the kit's nginx (tests/harness/nginx.py; --nginx names a
copy of deploy/nginx/ to try other settings). Each run starts a fresh nginx and opens --sockets
play sockets over wss://, one per player, each on a deal of its own with one move stored;
least_conn gives each process half. Then (tests/harness/reconnect_storm.py's `storm`) each
process in turn is killed (kill -9) and started again 2 s later, as the unit's Restart=always
RestartSec=2 does: the first, then the second as soon as the first listens again, as a rolling
restart does. The sockets of a killed process reconnect as the pages do (static/socket/socket.js:
0.25-0.5 s, doubling to 15 s, jittered): after the first kill half of them, to the other
process; after the second all of them, to the process that has just come back.

It prints one JSON object a run and then their medians. For each kill: how many sockets it
closed and how many resumed (greeted with their game as stored, its move there), the seconds
from the kill to the first, the middle, the 99th and the last greeting, and the handshakes
refused meanwhile (by HTTP status; nginx answers 502 when it finds no process to take one).
Then what nginx's error log says (processes taken out of the upstream, no live upstreams).
"""

import argparse
import json
import os
import statistics
import tempfile
from collections import Counter
from pathlib import Path

from tests.harness.nginx import KIT, Nginx, kit_nginx
from tests.harness.reconnect_storm import Site, kit_env, kit_site, storm
from tests.harness.redis_server import Redis

NGINX_SAYS = {
    "marked_down": "upstream server temporarily disabled",
    "no_live_upstreams": "no live upstreams",
}


# A run ---------------------------------------------------------------------------------------


def listen_overflows() -> int:
    """Connections that found a listen queue full on this machine (any listener, the run's
    or not): each waits a second for its SYN to be sent again (Linux's TcpExt counter)."""
    lines = Path("/proc/net/netstat").read_text().splitlines()
    names, values = (line.split() for line in lines if line.startswith("TcpExt:"))
    return int(dict(zip(names, values, strict=True)).get("ListenOverflows", 0))


def nginx_said(nginx: Nginx) -> dict:
    log = nginx.error_log()
    return {name: log.count(words) for name, words in NGINX_SAYS.items()}


def one_run(site: Site, number: int, folder: Path, kit: Path) -> dict:
    """A fresh nginx in `folder` on the kit's files (or `kit`'s), and a storm through it."""
    nginx, site.https_port = kit_nginx(folder, [daphne.port for daphne in site.daphnes], kit)
    overflows = listen_overflows()
    try:
        kills = storm(site, number)
    finally:
        nginx.stop()
    return {
        "sockets": len(site.players),
        "first_kill": kills[0],
        "second_kill": kills[1],
        "nginx": nginx_said(nginx),
        "listen_overflows": listen_overflows() - overflows,
        "load_average": round(os.getloadavg()[0], 2),
    }


def medians(runs: list[dict]) -> dict:
    """Each figure's median over the runs; the refused handshakes summed."""
    summary: dict = {"runs": len(runs)}
    for kill in ("first_kill", "second_kill"):
        figures = [run[kill] for run in runs]
        numbers = [key for key, value in figures[0].items() if isinstance(value, int | float)]
        summary[kill] = {key: statistics.median(f[key] for f in figures) for key in numbers}
        failed = sum((Counter(f["handshakes_failed"]) for f in figures), Counter())
        summary[kill]["handshakes_failed_in_all_runs"] = dict(failed)
    return summary


def started_site(args, redis_url: str, workdir: Path) -> Site:
    env = kit_env(workdir, args.database_url, redis_url)
    return kit_site(env, workdir, args.sockets, prefix="storm")


def arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database-url", required=True, help="a PostgreSQL database's URL")
    parser.add_argument("--redis-url", default="", help="default: a redis-server of our own")
    parser.add_argument("--sockets", type=int, default=200)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--nginx", type=Path, default=KIT / "nginx", help="the kit's nginx files")
    return parser.parse_args()


def main() -> None:
    args, workdir = arguments(), Path(tempfile.mkdtemp(prefix="h2h-storm-"))
    own = None if args.redis_url else Redis().start()
    site = started_site(args, args.redis_url or own.url, workdir)
    runs = []
    try:
        for number in range(args.runs):
            folder = workdir / f"nginx-{number}"
            folder.mkdir()
            runs.append(one_run(site, number, folder, args.nginx))
            print(json.dumps(runs[-1]), flush=True)
        print(json.dumps(medians(runs)), flush=True)
    finally:
        for daphne in site.daphnes:
            daphne.stop()
        if own is not None:
            own.stop()


if __name__ == "__main__":
    main()
