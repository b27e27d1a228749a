"""A fault trial: players play through the kit's nginx while a part of the site fails and comes
back, and what they saw and what the database kept is told in figures (`python -m bench.faults`
runs the trials and prints their table; what each fault is, is told there).

Each player taps the stock of a game of their own at a person's pace, one tap at a time, so that
every move acknowledged (a state frame with its `seq`) is one entry of the game's stored log. A
tap answered `storage_unavailable` is sent again with the same `seq`, backing off as the pages
do (0.5 s doubling to 5 s); a closed socket reconnects as the pages do and numbers on from the
greeting's `last_seq`. Each process is asked GET /readyz meanwhile (tests/harness/readyz.py).

The figures of a trial (`figures`):

- moves acknowledged, and how many of them the stored logs lack (`lost`), read from the
  database after the trial;
- players locked out: a player none of whose taps was answered within LOCKED_OUT_AFTER_S of the
  fault's end, and a storm's socket never greeted again; and players refused one of the sockets
  a process allows them afterwards (a place a socket kept after it ended would refuse one);
- closes with 1011, which the server never sends;
- taps sent during the fault, and those answered within ANSWERED_WITHIN_S;
- resume: from a socket's close to the greeting on its reconnect, p50 and p99;
- /readyz: the share of the probes during the fault that answered 200 within 1 s, and how long
  after the fault's end every process answered so for good.
"""

import asyncio
import itertools
import json
import math
from collections import Counter
from dataclasses import dataclass, field
from random import Random
from types import SimpleNamespace

import psycopg
from websockets.exceptions import ConnectionClosed

from tests.harness import readyz
from tests.harness.figures import percentile
from tests.harness.policy import HUMAN_PAUSE_S, frame_text
from tests.harness.reconnect_storm import Site
from tests.harness.redis_outage import TAP_TIMEOUT_S, backoff, locked_out, session

ANSWERED_WITHIN_S = TAP_TIMEOUT_S  # a tap answered later did not keep the game going
LOCKED_OUT_AFTER_S = 10.0
TROUBLE_BACKOFF_S = (0.5, 5.0)  # static/socket/socket.js: a move not stored, sent again
LEAVING_S = 2.0  # for the players' tasks to end once the trial is over


@dataclass
class Tap:
    player: int
    sent: float  # on the trial's clock
    answered: float | None = None  # when its move was acknowledged


@dataclass
class Trial:
    """What one trial's players saw, and what the database kept of their moves."""

    name: str
    players: int
    clock: readyz.Run = field(default_factory=readyz.Run)  # the clock, the probes, `done`
    began: float = math.inf  # the fault, on the clock
    ended: float = math.inf
    taps: list[Tap] = field(default_factory=list)
    closes: Counter = field(default_factory=Counter)
    refusals: Counter = field(default_factory=Counter)
    handshakes_failed: Counter = field(default_factory=Counter)
    resumes: list[float] = field(default_factory=list)  # seconds from a close to a greeting
    acknowledged: dict = field(default_factory=dict)  # game -> moves acknowledged
    stored: dict = field(default_factory=dict)  # game -> moves in its stored log
    not_resumed: int = 0  # a storm's sockets never greeted again
    refused_a_place: int = 0

    @property
    def over(self) -> bool:
        return self.clock.done

    def now(self) -> float:
        return self.clock.now()


# The figures ---------------------------------------------------------------------------------


def figures(trial: Trial) -> dict:
    during = [tap for tap in trial.taps if trial.began <= tap.sent < trial.ended]
    answered = sum(answered_in_time(tap) for tap in during)
    return {
        "trial": trial.name,
        "fault_s": round(trial.ended - trial.began, 1),
        "acknowledged": sum(trial.acknowledged.values()),
        "stored": sum(trial.stored.get(game, 0) for game in trial.acknowledged),
        "lost": sum(max(0, n - trial.stored.get(g, 0)) for g, n in trial.acknowledged.items()),
        "locked_out": len(locked_out_players(trial)) + trial.not_resumed,
        "refused_a_place": trial.refused_a_place,
        "closes_1011": trial.closes[1011],
        "taps_in_fault": {
            "sent": len(during),
            "answered": answered,
            "ratio": ratio(answered, during),
        },
        "resumed": len(trial.resumes),
        "resume_p50_s": round(percentile(trial.resumes, 0.5), 2) if trial.resumes else None,
        "resume_p99_s": round(percentile(trial.resumes, 0.99), 2) if trial.resumes else None,
        **readyz_figures(trial),
        "closes": {str(code): n for code, n in sorted(trial.closes.items(), key=str)},
        "refusals": dict(trial.refusals),
        "handshakes_failed": {str(status): n for status, n in trial.handshakes_failed.items()},
    }


def answered_in_time(tap: Tap) -> bool:
    return tap.answered is not None and tap.answered - tap.sent <= ANSWERED_WITHIN_S


def ratio(part: int, whole: list) -> float | None:
    return round(part / len(whole), 3) if whole else None


def locked_out_players(trial: Trial) -> set[int]:
    """The players none of whose taps was answered within LOCKED_OUT_AFTER_S of the fault's end."""
    window = (trial.ended, trial.ended + LOCKED_OUT_AFTER_S)
    served = {tap.player for tap in trial.taps if window[0] <= (tap.answered or -1) <= window[1]}
    return set(range(trial.players)) - served


def readyz_figures(trial: Trial) -> dict:
    """The share of the fault's probes ready and what the others said, and the seconds from its
    end until every process was ready for good (None: one never was)."""
    probes = trial.clock.probes
    during = [probe for probe in probes if trial.began <= probe.at < trial.ended]
    again = [
        readyz.recovery_seconds([p for p in probes if p.process == process], trial.ended)
        for process in sorted({probe.process for probe in probes})
    ]
    said = Counter(readyz.answer(probe) for probe in during if not readyz.ready(probe))
    return {
        "readyz_ready_in_fault": ratio(sum(map(readyz.ready, during)), during),
        "readyz_ready_again_s": None if None in again else max(again, default=None),
        "readyz_said_in_fault": dict(said.most_common(3)),
    }


def problems(row: dict) -> list[str]:
    """What must never happen, in a trial's figures."""
    said = {
        "lost": "acknowledged moves not stored",
        "locked_out": "players locked out",
        "refused_a_place": "players refused a socket afterwards",
        "closes_1011": "sockets closed with 1011",
    }
    return [f"{row['trial']}: {row[key]} {words}" for key, words in said.items() if row[key]]


COLUMNS = (
    "trial",
    "fault",
    "moves acknowledged / stored",
    "players locked out",
    "1011 closes",
    "taps answered in the fault",
    "resume p50 / p99",
    "/readyz 200 in the fault",
    "/readyz 200 again after",
)


def table(rows: list[dict]) -> str:
    """The trials' figures as one Markdown table."""
    lines = ["| " + " | ".join(COLUMNS) + " |", "|" + " --- |" * len(COLUMNS)]
    return "\n".join(lines + ["| " + " | ".join(cells(row)) + " |" for row in rows])


def cells(row: dict) -> list[str]:
    taps = row["taps_in_fault"]
    locked = f"{row['locked_out']} ({row['refused_a_place']} refused a socket afterwards)"
    return [
        row["trial"],
        f"{row['fault_s']:g} s",
        f"{row['acknowledged']:,} / {row['stored']:,}"
        + (f" ({row['lost']} lost)" * bool(row["lost"])),
        locked if row["refused_a_place"] else str(row["locked_out"]),
        str(row["closes_1011"]),
        f"{taps['answered']:,} of {taps['sent']:,}" + share(taps["ratio"]),
        " / ".join(seconds(row[key]) for key in ("resume_p50_s", "resume_p99_s")),
        "–" if row["readyz_ready_in_fault"] is None else f"{row['readyz_ready_in_fault']:.0%}",
        seconds(row["readyz_ready_again_s"], never="never"),
    ]


def share(fraction: float | None) -> str:
    return "" if fraction is None else f" ({fraction:.0%})"


def seconds(value: float | None, never: str = "–") -> str:
    return never if value is None else f"{value:.2f} s"


# The players ---------------------------------------------------------------------------------


async def played(site: Site, trial: Trial, codes: list[str]) -> None:
    """Each player plays their code, and each process is probed, until the trial is over."""
    tasks = [asyncio.create_task(player(site, trial, n, code)) for n, code in enumerate(codes)]
    tasks += [
        asyncio.create_task(readyz.probe_process(trial.clock, number, daphne))
        for number, daphne in enumerate(site.daphnes)
    ]
    while not trial.over:
        await asyncio.sleep(0.1)
    await asyncio.wait(tasks, timeout=LEAVING_S)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


async def player(site: Site, trial: Trial, number: int, code: str) -> None:
    """One player's games of `code`, reconnecting as the pages do; each resume timed."""
    rng, closed_at = Random(number), None

    async def play(socket, greeting: dict) -> None:
        nonlocal closed_at
        if closed_at is not None:
            trial.resumes.append(trial.now() - closed_at)
            closed_at = None
        try:
            await tapping(socket, trial, number, greeting, rng)
        except ConnectionClosed:
            closed_at = trial.now()
            raise

    headers = site.headers(site.players[number])
    await session(site.url(code), headers, trial, play, site.tls)


async def tapping(socket, trial: Trial, number: int, greeting: dict, rng: Random) -> None:
    """Stock taps at a person's pace, each sent until it is answered, until the trial is over."""
    game, seq = greeting["game"]["id"], greeting["game"]["last_seq"]
    trial.acknowledged.setdefault(game, 0)
    while not trial.over:
        seq += 1
        tap = Tap(number, trial.now())
        trial.taps.append(tap)
        if await tap_acknowledged(socket, trial, seq):
            tap.answered = trial.now()
            trial.acknowledged[game] += 1
        await asyncio.sleep(rng.uniform(*HUMAN_PAUSE_S))


async def tap_acknowledged(socket, trial: Trial, seq: int) -> bool:
    """Whether the stock tap `seq` was stored: sent again after each `storage_unavailable`,
    backing off as the pages do, until another answer (or the trial's end)."""
    for attempt in itertools.count(1):
        await socket.send(frame_text(seq, "tap", "stock"))
        reply = await answer_to(socket, seq, trial)
        if reply is None or reply["type"] == "state":
            return reply is not None
        trial.refusals[reply["error"]] += 1
        if reply["error"] != "storage_unavailable":
            return False
        await asyncio.sleep(backoff(attempt, *TROUBLE_BACKOFF_S))
    return False


async def answer_to(socket, seq: int, trial: Trial) -> dict | None:
    """The frame answering `seq`, past any other, however long it takes; None once the trial
    is over."""
    while not trial.over:
        try:
            frame = json.loads(await asyncio.wait_for(socket.recv(), 0.5))
        except TimeoutError:
            continue
        if frame.get("seq") == seq:
            return frame
    return None


async def places_refused(site: Site) -> int:
    """Players refused any of the sockets a process allows them, opened at once on a process
    directly (as nginx passes them on: from an https page), on each process in turn."""
    processes = [
        SimpleNamespace(origin=f"https://127.0.0.1:{daphne.port}", ws_url=daphne.ws_url)
        for daphne in site.daphnes
    ]

    async def refused(player: dict) -> bool:
        return any([await locked_out(process, [player]) for process in processes])

    return sum(await asyncio.gather(*map(refused, site.players)))


# The database --------------------------------------------------------------------------------


def moves_stored(database_url: str, games: list[int]) -> dict[int, int]:
    """Each game's stored log: how many actions it holds."""
    query = (
        "SELECT g.id, count(a.id) FROM game_game g LEFT JOIN game_action a ON a.game_id = g.id "
        "WHERE g.id = ANY(%s) GROUP BY g.id"
    )
    with psycopg.connect(database_url) as connection:
        return dict(connection.execute(query, [games]).fetchall())


def games_of(database_url: str, names: list[str], codes: list[str]) -> list[int | None]:
    """The game of each player (by name) of the code beside it; None where none was stored."""
    query = (
        "SELECT u.username, g.code, g.id FROM game_game g JOIN auth_user u ON u.id = g.player_id "
        "WHERE u.username = ANY(%s) AND g.code = ANY(%s)"
    )
    with psycopg.connect(database_url) as connection:
        found = {
            (name, code): game for name, code, game in connection.execute(query, [names, codes])
        }
    return [found.get(pair) for pair in zip(names, codes, strict=True)]
