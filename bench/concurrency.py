"""Concurrency against real daphne processes: many players at once, one game from two processes.

    python -m bench.concurrency sqlite [--players 20] [--rate 5] [--seconds 60]
    python -m bench.concurrency daily [--players 200]      # PostgreSQL + Redis, 2 processes
    python -m bench.concurrency tabs [--seconds 10]        # PostgreSQL + Redis, 2 processes

The runs and what each checks are tests/harness/concurrency.py's. PostgreSQL and Redis come from
H2H_REL_DATABASE_URL (postgres://postgres@127.0.0.1:5432/h2h_rel) and H2H_REL_REDIS_URL
(redis://127.0.0.1:6379/5); the database is dropped and made afresh. Prints one JSON object.
"""

import argparse
import json

from tests.harness.concurrency import daily_run, sqlite_run, tabs_run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("run", choices=["sqlite", "daily", "tabs"])
    parser.add_argument("--players", type=int)
    parser.add_argument("--rate", type=float, default=5)
    parser.add_argument("--seconds", type=float)
    args = parser.parse_args()
    if args.run == "sqlite":
        report = sqlite_run(args.players or 20, args.rate, args.seconds or 60)
    elif args.run == "daily":
        report = daily_run(args.players or 200)
    else:
        report = tabs_run(args.seconds or 10)
    print(json.dumps(report))


if __name__ == "__main__":
    main()
