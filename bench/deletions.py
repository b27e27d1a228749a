"""Deleting accounts while others play: the reply time of the players' moves without deletions
and during them, on SQLite with many sessions stored.

    python -m bench.deletions [--runs 3] [--players 100] [--sessions 10000] [--seconds 30]

Each run starts daphne on 127.0.0.1 over a fresh SQLite file holding `--sessions` sessions of
other accounts (stored and indexed as logins store them), `--players` players tapping at a
person's pace over websockets (tests/harness/policy.py, 0.25-0.75 s between taps), and accounts
to delete, each logged in on two devices, one of them with a game socket open. The run
alternates slices of SLICE_S seconds, quiet then deleting; in a deleting slice an account is
deleted through its page every DELETE_EVERY_S, as its player deletes it (the form's CSRF token
and the password).

Each tap's reply time counts for the slice it was sent in, and as "during a deletion" when it
was in flight while a deletion request was. One JSON line per run, then one of the medians:
`added_p99_ms` is how much a deletion adds to the p99 of the moves in flight with it.
"""

import argparse
import asyncio
import contextlib
import json
import os
import random
import statistics
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from websockets.asyncio.client import connect

from game.engine import random_code
from tests.harness import policy
from tests.harness.pages import delete_account
from tests.harness.server import Server, make_players, manage, server_env

SLICE_S = 5.0
DELETE_EVERY_S = 1.25
PASSWORD = "a-long-password-for-the-deletion-bench"


@dataclass
class Clock:
    """The run's phase ("quiet" or "deleting"), and the time spans of the deletions."""

    phase: str = "warming"
    done: bool = False
    arrived: int = 0
    deletions: list[tuple[float, float]] = field(default_factory=list)
    taps: list[tuple[str, float, float]] = field(default_factory=list)  # phase, sent, replied
    errors: int = 0
    victims_closed: int = 0


async def reply_to(socket, seq: int) -> dict:
    """The frame that answers `seq` (a par or watchers frame may come first)."""
    while True:
        frame = json.loads(await socket.recv())
        if frame.get("seq") == seq or frame["type"] == "error":
            return frame


async def play(socket, view: dict, seq: int, rng: random.Random, clock: Clock) -> None:
    """Tap as a person would until the game ends or the run does."""
    while not (view["won"] or view["deadlocked"] or clock.done):
        seq += 1
        kind, target = policy.next_action(view, rng)
        frame = {"type": kind, "seq": seq} | ({"target": target} if kind == "tap" else {})
        phase, sent = clock.phase, time.perf_counter()
        await socket.send(json.dumps(frame))
        reply = await reply_to(socket, seq)
        clock.taps.append((phase, sent, time.perf_counter()))
        if reply["type"] == "error":
            clock.errors += 1
            return
        view = reply["view"]
        await asyncio.sleep(rng.uniform(*policy.HUMAN_PAUSE_S))


async def player(server: Server, sessionid: str, number: int, clock: Clock) -> None:
    """Games one after another, each on a new socket, until the run is over."""
    headers = {"Cookie": f"sessionid={sessionid}", "Origin": server.origin}
    rng, first = random.Random(number), True
    while not clock.done:
        url = server.ws_url(f"/ws/play/{random_code()}/")
        async with connect(url, additional_headers=headers, max_size=2**20) as socket:
            greeting = json.loads(await socket.recv())
            clock.arrived, first = clock.arrived + first, False
            await play(socket, greeting["view"], greeting["game"]["last_seq"], rng, clock)


async def leaving_socket(server: Server, sessionid: str, clock: Clock) -> None:
    """A deleted player's open game: it is to close with 4001 once the account is gone."""
    headers = {"Cookie": f"sessionid={sessionid}", "Origin": server.origin}
    async with connect(
        server.ws_url(f"/ws/play/{random_code()}/"), additional_headers=headers
    ) as ws:
        await ws.recv()
        clock.arrived += 1
        with contextlib.suppress(Exception):
            while True:
                await ws.recv()
        clock.victims_closed += ws.close_code == 4001


async def deleting(server: Server, leaving: list, clock: Clock, seconds: float) -> None:
    """Delete one account every DELETE_EVERY_S for `seconds`, each after the last one ended."""
    ends = time.monotonic() + seconds
    while time.monotonic() + DELETE_EVERY_S <= ends + 0.01 and leaving:
        started = time.perf_counter()
        status = await asyncio.to_thread(delete_account, server, leaving.pop()[0], PASSWORD)
        clock.deletions.append((started, time.perf_counter()))
        clock.errors += status != 302
        await asyncio.sleep(max(0.0, DELETE_EVERY_S - (time.perf_counter() - started)))
    await asyncio.sleep(max(0.0, ends - time.monotonic()))


async def conduct(server: Server, players: list, leaving: list, seconds: float) -> Clock:
    """Every client connected, then quiet and deleting slices in turn for `seconds`."""
    clock = Clock()
    tapping = asyncio.gather(
        *(player(server, p["sessionid"], n, clock) for n, p in enumerate(players)),
        return_exceptions=True,
    )
    victims = [asyncio.create_task(leaving_socket(server, d[1], clock)) for d in leaving]
    deadline = time.monotonic() + 60
    while clock.arrived < len(players) + len(victims) and time.monotonic() < deadline:
        await asyncio.sleep(0.05)  # every socket open and every first game dealt
    for _ in range(max(1, round(seconds / SLICE_S / 2))):
        clock.phase = "quiet"
        await asyncio.sleep(SLICE_S)
        clock.phase = "deleting"
        await deleting(server, leaving, clock, SLICE_S)
    clock.done = True
    clock.errors += sum(isinstance(outcome, Exception) for outcome in await tapping)
    for victim in victims:  # the accounts left undeleted keep theirs open
        victim.cancel()
    await asyncio.gather(*victims, return_exceptions=True)
    return clock


def p99(values: list[float]) -> float:
    ordered = sorted(values)
    return round(1000 * ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))], 2)


def overlaps(sent: float, replied: float, spans: list[tuple[float, float]]) -> bool:
    return any(sent < end and replied > start for start, end in spans)


def figures(clock: Clock) -> dict:
    """The p99 reply times of the quiet slices' taps, the deleting slices', and those in
    flight with a deletion; the deletions' own times."""
    quiet = [r - s for phase, s, r in clock.taps if phase == "quiet"]
    deleting = [r - s for phase, s, r in clock.taps if phase == "deleting"]
    during = [r - s for _, s, r in clock.taps if overlaps(s, r, clock.deletions)]
    spans = [end - start for start, end in clock.deletions]
    return {
        "p99_quiet_ms": p99(quiet),
        "p99_deleting_ms": p99(deleting),
        "p99_during_deletion_ms": p99(during),
        "added_p99_ms": round(p99(during) - p99(quiet), 2),
        "taps_quiet": len(quiet),
        "taps_deleting": len(deleting),
        "taps_during_deletion": len(during),
        "deletions": len(spans),
        "deletion_median_ms": round(1000 * statistics.median(spans), 1) if spans else None,
        "deletion_max_ms": round(1000 * max(spans), 1) if spans else None,
        "deleted_sockets_closed": clock.victims_closed,
        "errors": clock.errors,
    }


def prepared(args: argparse.Namespace, workdir: Path) -> tuple[dict, list, list]:
    """A migrated SQLite file with the players, the stored sessions and the accounts to delete."""
    env = server_env(sqlite_path=str(workdir / "db.sqlite3"))
    manage(env, "migrate", "--noinput")
    manage(env, "collectstatic", "--noinput")  # the pages outside DEBUG need them
    players = make_players(env, args.players)
    manage(env, "shell", "-c", f"from tests.harness.players import crowd; crowd({args.sessions})")
    count = 4 * max(1, round(args.seconds / SLICE_S / 2)) + 2  # 4 a slice, and spares
    shell = f"from tests.harness.players import leaving; leaving({count}, {PASSWORD!r})"
    leaving = json.loads(manage(env, "shell", "-c", shell).strip().splitlines()[-1])
    return env, players, leaving


def one_run(args: argparse.Namespace, number: int) -> dict:
    workdir = Path(tempfile.mkdtemp(prefix="h2h-deletions-"))
    env, players, leaving = prepared(args, workdir)
    with Server(env, log_path=str(workdir / "daphne.log")) as server:
        clock = asyncio.run(conduct(server, players, leaving, args.seconds))
    config = {"run": number, "players": args.players, "sessions_stored": args.sessions}
    return config | figures(clock) | {"load_average": round(os.getloadavg()[0], 2)}


def arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--players", type=int, default=100)
    parser.add_argument("--sessions", type=int, default=10_000)
    parser.add_argument("--seconds", type=float, default=30, help="quiet and deleting, in all")
    return parser.parse_args()


def main() -> None:
    args, runs = arguments(), []
    for number in range(1, args.runs + 1):
        runs.append(one_run(args, number))
        print(json.dumps(runs[-1]), flush=True)
    medians = {
        name: statistics.median(run[name] for run in runs)
        for name in ("p99_quiet_ms", "p99_deleting_ms", "p99_during_deletion_ms", "added_p99_ms")
    }
    print(json.dumps({"medians_of_runs": len(runs), **medians, "sessions_stored": args.sessions}))


if __name__ == "__main__":
    main()
