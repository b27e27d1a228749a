"""Does /readyz tell the truth? `trial`: players play at a person's pace while every server
process is asked GET /readyz every PROBE_EVERY_S, and a fault, if given, runs meanwhile.

A player taps every 250-750 ms; a closed socket reconnects to a new game. Each probe is kept
with its process, status, latency and reason: `ready` says whether it answered 200 within
READY_WITHIN_S. `python -m bench.readyz` measures trials with a fault, at 30 players;
tests/system/test_readyz.py runs short ones with none.
"""

import asyncio
import json
import time
from dataclasses import dataclass, field
from random import Random

from websockets.asyncio.client import connect

from game.engine import random_code
from tests.harness import policy
from tests.harness.policy import HUMAN_PAUSE_S, frame_text
from tests.harness.server import Server

PROBE_EVERY_S = 0.2
READY_WITHIN_S = 1.0  # the promise: 200 within this
PROBE_TIMEOUT_S = 5.0


@dataclass
class Probe:
    at: float  # seconds since the trial's clock started
    process: int
    status: int  # 0: no answer within PROBE_TIMEOUT_S
    seconds: float
    reason: str


@dataclass
class Run:
    started: float = field(default_factory=time.monotonic)
    probes: list[Probe] = field(default_factory=list)
    taps: int = 0
    reconnects: int = 0
    done: bool = False

    def now(self) -> float:
        return time.monotonic() - self.started


# The probes ----------------------------------------------------------------------------------


async def get_readyz(port: int) -> tuple[int, str]:
    """(status, reason): one GET /readyz over plain http/1.0 (an unchunked body)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        writer.write(b"GET /readyz HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n")
        await writer.drain()
        answer = await reader.read()
    finally:
        writer.close()
    head, _, body = answer.partition(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1])
    return status, json.loads(body).get("reason", "") if status != 200 else ""


async def probe_process(run: Run, number: int, server: Server) -> None:
    while not run.done:
        at, sent = run.now(), time.perf_counter()
        try:
            async with asyncio.timeout(PROBE_TIMEOUT_S):
                status, reason = await get_readyz(server.port)
        except (OSError, TimeoutError, ValueError, IndexError) as error:
            status, reason = 0, f"no answer: {type(error).__name__}"
        run.probes.append(Probe(at, number, status, time.perf_counter() - sent, reason))
        await asyncio.sleep(max(0.0, PROBE_EVERY_S - (time.perf_counter() - sent)))


def ready(probe: Probe) -> bool:
    return probe.status == 200 and probe.seconds <= READY_WITHIN_S


def recovery_seconds(probes: list[Probe], ended: float) -> float | None:
    """From `ended` to the answer of the first probe from which on every probe was ready."""
    after = [probe for probe in probes if probe.at >= ended]
    for index, probe in enumerate(after):
        if all(map(ready, after[index:])):
            return round(probe.at + probe.seconds - ended, 2)
    return None


def answer(probe: Probe) -> str:
    """What a probe heard, in a word: ready, a 200 too late, or the reason it was given."""
    if probe.reason:
        return probe.reason
    return "ready" if ready(probe) else f"200 after more than {READY_WITHIN_S:g} s"


# The players ---------------------------------------------------------------------------------


async def player(run: Run, server: Server, sessionid: str, rng: Random) -> None:
    """Games one after another at a person's pace; a socket that closes reconnects."""
    headers = {"Cookie": f"sessionid={sessionid}", "Origin": server.origin}
    while not run.done:
        url = server.ws_url(f"/ws/play/{random_code()}/")
        try:
            async with connect(url, additional_headers=headers) as socket:
                await play_a_game(run, socket, rng)
        except Exception:  # noqa: BLE001  (a fault closed it: reconnect)
            run.reconnects += 1
            await asyncio.sleep(rng.uniform(0.5, 1.5))


async def play_a_game(run: Run, socket, rng: Random) -> None:
    greeting = json.loads(await socket.recv())
    view, seq = greeting["view"], greeting["game"]["last_seq"]
    while not (run.done or view["won"] or view["deadlocked"]):
        await asyncio.sleep(rng.uniform(*HUMAN_PAUSE_S))
        seq += 1
        await socket.send(frame_text(seq, *policy.next_action(view, rng)))
        reply = json.loads(await socket.recv())
        if reply["type"] == "error":
            return
        run.taps += 1
        view = reply["view"]


# A trial -------------------------------------------------------------------------------------


async def trial(servers, players, fault=None, *, seconds: float) -> tuple[Run, dict]:
    """Players play and probes probe for `seconds`; `fault(run)`, if given, runs meanwhile
    and returns the times it started and ended."""
    run = Run()
    tasks = [
        asyncio.create_task(player(run, servers[n % len(servers)], one["sessionid"], Random(n)))
        for n, one in enumerate(players)
    ]
    tasks += [asyncio.create_task(probe_process(run, n, s)) for n, s in enumerate(servers)]
    times = {}
    if fault is not None:
        times = await fault(run)
    else:
        await asyncio.sleep(seconds)
    run.done = True
    await asyncio.wait(tasks, timeout=10)
    for task in tasks:
        task.cancel()
    return run, times
