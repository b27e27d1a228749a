"""Crash harness at full length: kill -9 a real daphne at random moments, restart, check.

    python -m bench.crash [--trials 100] [--players 4] [--seed 1]

The trials and their checks are tests/harness/crash.py's. Prints one JSON object: the frames
answered, those in flight at a kill, the games and actions stored, and every problem found.
"""

import argparse
import json

from tests.harness import crash


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=100)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(json.dumps(crash.run(args.trials, args.players, args.seed)))


if __name__ == "__main__":
    main()
