"""A Redis outage during play, measured:

    python -m bench.redis_outage [--players 30] [--outage 20] [--before 5] [--after 10] \\
        [--database-url URL]

The run is tests/harness/redis_outage.py's (what it does and reports is told there), at full
size: a redis-server of its own stopped for --outage seconds under --players players. Prints
its figures as one JSON object.
"""

import argparse
import json

from tests.harness.redis_outage import outage_run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=30)
    parser.add_argument("--outage", type=float, default=20)
    parser.add_argument("--before", type=float, default=5)
    parser.add_argument("--after", type=float, default=10)
    parser.add_argument("--database-url", default="")
    args = parser.parse_args()
    print(json.dumps(outage_run(**vars(args))), flush=True)


if __name__ == "__main__":
    main()
