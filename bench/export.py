"""A player's data export under daphne: the server's memory while it streams a large account.

    python -m bench.export [--games 500] [--moves 2000] [--also 50] [--read-mb-per-s 2]

Writes accounts of `--games` finished games of `--moves` actions each (and of `--also` games,
if given) into a SQLite file of its own, then, for each, starts a production-like daphne,
warms it with the export of a one-game account, and downloads /accounts/export/ with the
account's session as fast as loopback allows, sampling the server's resident memory every
10 ms. Prints one JSON object per account: the peak growth of the server's RSS over its RSS
before the download, the bytes downloaded, the seconds, and the games and actions of the
downloaded document (parsed, so it is whole and valid JSON). `--read-mb-per-s` reads no
faster than that: a slow client, whom daphne does not wait for.
"""

import argparse
import http.client
import json
import tempfile
import threading
import time
from pathlib import Path

from tests.harness.server import Server, manage, server_env

READ_BYTES = 2**16


class PeakRss:
    """The server process's highest RSS, sampled in a thread while the block runs."""

    def __init__(self, server: Server, every: float = 0.01) -> None:
        self.server, self.every, self.peak_mb = server, every, 0.0
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._sample, name="rss-sampler")

    def _sample(self) -> None:
        while not self._done.is_set():
            self.peak_mb = max(self.peak_mb, self.server.rss_mb(children=False))
            self._done.wait(self.every)

    def __enter__(self) -> "PeakRss":
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._done.set()
        self._thread.join()


def download(server: Server, sessionid: str, mb_per_s: float = 0) -> bytes:
    """The whole export of the session's account, read as it comes (at most `mb_per_s`)."""
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=600)
    headers = {"Host": "127.0.0.1", "Cookie": f"sessionid={sessionid}"}
    connection.request("GET", "/accounts/export/", headers=headers)
    response = connection.getresponse()
    assert response.status == 200, response.status
    parts, started = [], time.perf_counter()
    while part := response.read(READ_BYTES):
        parts.append(part)
        if mb_per_s:
            due = started + len(parts) * READ_BYTES / (mb_per_s * 2**20)
            time.sleep(max(0.0, due - time.perf_counter()))
    connection.close()
    return b"".join(parts)


def measure(env: dict, workdir: Path, account: dict, warm: dict, mb_per_s: float) -> dict:
    """One fresh server: warmed by a small export, then the account's export measured."""
    log = str(workdir / f"daphne-{account['name']}.log")
    with Server(env, log_path=log) as server:
        download(server, warm["sessionid"])
        time.sleep(0.5)  # the warm-up's memory settles
        before = server.rss_mb(children=False)
        started = time.perf_counter()
        with PeakRss(server) as peak:
            body = download(server, account["sessionid"], mb_per_s)
        seconds = time.perf_counter() - started
    document = json.loads(body)
    return {
        "games": len(document["games"]),
        "actions": sum(len(game["actions"]) for game in document["games"]),
        "rss_before_mb": round(before, 1),
        "peak_rss_growth_mb": round(peak.peak_mb - before, 1),
        "bytes": len(body),
        "seconds": round(seconds, 2),
    }


def accounts(env: dict, wanted: list[tuple[str, int, int]]) -> list[dict]:
    """Writes the accounts (name, games, moves) and returns their sessions."""
    code = f"from tests.harness.export_account import main; main({wanted!r})"
    return json.loads(manage(env, "shell", "-c", code).strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--moves", type=int, default=2000)
    parser.add_argument("--also", type=int, default=0, help="an account of this many games too")
    parser.add_argument("--read-mb-per-s", type=float, default=0, help="0: as fast as it comes")
    args = parser.parse_args()
    workdir = Path(tempfile.mkdtemp(prefix="h2h-export-"))
    env = server_env(sqlite_path=str(workdir / "db.sqlite3"))
    manage(env, "migrate", "--noinput")
    sizes = [size for size in (args.also, args.games) if size]
    wanted = [("warm", 1, args.moves), *((f"p{size}", size, args.moves) for size in sizes)]
    warm, *measured = accounts(env, wanted)
    for account in measured:
        result = measure(env, workdir, account, warm, args.read_mb_per_s)
        print(json.dumps(result), flush=True)


if __name__ == "__main__":
    main()
