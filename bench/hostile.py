"""Hostile frames against a real daphne while honest players keep playing.

    python -m bench.hostile [--frames 10000] [--honest 4] [--seed 1]

Starts a daphne of its own over a SQLite file (rate limit off) and runs tests/harness/hostile.py's
attack on it: every frame Hypothesis generates must be answered by an error frame or closed
with a proper code, honest players see 0 errors, and the server's memory grows less than 20 MB.
Prints one JSON line of figures.
"""

import argparse
import json
import socket
import tempfile
from pathlib import Path

from tests.harness.hostile import attack
from tests.harness.server import Server, make_players, manage, server_env


def run(frames: int = 10_000, honest: int = 4, seed: int = 1) -> dict:
    workdir = Path(tempfile.mkdtemp(prefix="h2h-hostile-"))
    env = server_env(sqlite_path=str(workdir / "db.sqlite3"), H2H_TAP_RATE="0")
    manage(env, "migrate", "--noinput")
    players = make_players(env, honest + 1, prefix="hostile")
    with Server(env, log_path=str(workdir / "daphne.log")) as server:
        return attack(server, players, frames=frames, honest=honest, seed=seed)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=10_000)
    parser.add_argument("--honest", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    socket.setdefaulttimeout(30)
    print(json.dumps(run(args.frames, args.honest, args.seed)))


if __name__ == "__main__":
    main()
