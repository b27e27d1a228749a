"""Concurrency against real daphne processes: many players at once, one game from two processes.

Three runs, each returning its figures (`python -m bench.concurrency` runs them at full size,
tests/system/test_concurrency.py shorter):

`sqlite_run`: players tap at `rate` a second each on one server over SQLite; every reply must be a
state frame and the server's log must never say "database is locked".
`daily_run`: every player has today's daily deal one pair from the win; all of them send that
final pair on two sockets, one on each process, within a second. Exactly one ranked result per
player must be stored, no duplicates, and both processes must show the same leaderboard order.
`tabs_run`: one player taps the same game from two tabs on two processes; the stored log must be
one valid game that both tabs end up showing.
PostgreSQL and Redis come from H2H_REL_DATABASE_URL (postgres://postgres@127.0.0.1:5432/h2h_rel)
and H2H_REL_REDIS_URL (redis://127.0.0.1:6379/5); the database is dropped and made afresh.
"""

import asyncio
import json
import os
import random
import re
import sqlite3
import tempfile
import time
import urllib.request
from pathlib import Path

from websockets.asyncio.client import connect

from game import engine
from tests.harness import policy
from tests.harness.server import (
    HARNESS_DEAL_KEY,
    Server,
    fresh_database,
    make_players,
    manage,
    server_env,
)

REL_DATABASE_URL = os.environ.get(
    "H2H_REL_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/h2h_rel"
)
REL_REDIS_URL = os.environ.get("H2H_REL_REDIS_URL", "redis://127.0.0.1:6379/5")
# A burst of final moves is answered in turn: the daily run reports how long the last waited.
REPLY_TIMEOUT_S = 30
BOARD = ("heart", "stock", "waste", "score", "moves", "undos", "won", "deadlocked")


async def open_socket(server: Server, sessionid: str, code: str):
    headers = {"Cookie": f"sessionid={sessionid}"}
    url = server.ws_url(f"/ws/play/{code}/")
    socket = await connect(url, origin=server.origin, additional_headers=headers)
    first = json.loads(await socket.recv())
    return socket, first


# SQLite: many players at once ------------------------------------------------------------


async def tap_steadily(server, player: dict, rate: float, until: float, tally: dict) -> None:
    """Play games one after another at `rate` taps a second until the monotonic `until`."""
    rng = random.Random(player["name"])
    while time.monotonic() < until:
        socket, first = await open_socket(server, player["sessionid"], engine.random_code())
        async with socket:
            view, seq = first["view"], first["game"]["last_seq"]
            while time.monotonic() < until and not (view["won"] or view["deadlocked"]):
                started, seq = time.monotonic(), seq + 1
                kind, target = policy.next_action(view, rng)
                frame = {"type": kind, "seq": seq} | ({"target": target} if kind == "tap" else {})
                await socket.send(json.dumps(frame))
                reply = json.loads(await socket.recv())
                tally["taps"] += 1
                if reply["type"] != "state":
                    tally["errors"].append(reply.get("error"))
                    continue
                view = reply["view"]
                await asyncio.sleep(max(0.0, 1 / rate - (time.monotonic() - started)))


def sqlite_run(players: int = 20, rate: float = 5, seconds: float = 60) -> dict:
    """Players tapping at once on one server over SQLite (the default rate limit on)."""
    workdir = Path(tempfile.mkdtemp(prefix="h2h-sqlite-"))
    env = server_env(sqlite_path=str(workdir / "db.sqlite3"))
    manage(env, "migrate", "--noinput")
    everyone = make_players(env, players, prefix="busy")
    tally = {"taps": 0, "errors": []}
    with Server(env, log_path=str(workdir / "daphne.log")) as server:

        async def everyone_taps():
            until = time.monotonic() + seconds
            await asyncio.gather(*(tap_steadily(server, p, rate, until, tally) for p in everyone))

        asyncio.run(everyone_taps())
        log = Path(server.log_path).read_text(errors="replace")
    with sqlite3.connect(workdir / "db.sqlite3") as db:
        stored = db.execute("SELECT COUNT(*) FROM game_action").fetchone()[0]
    return {
        "players": players,
        "seconds": seconds,
        "taps": tally["taps"],
        "taps_per_s": round(tally["taps"] / seconds),
        "stored_actions": stored,
        "errors": tally["errors"],
        "database_is_locked": log.count("database is locked"),
        "tracebacks": log.count("Traceback"),
    }


# PostgreSQL: 200 players finish the daily deal at once -----------------------------------


def flush_redis(url: str = REL_REDIS_URL) -> None:
    import redis

    redis.Redis.from_url(url).flushdb()


def scaled_env(workdir: Path) -> dict:
    fresh_database(REL_DATABASE_URL)
    flush_redis()
    env = server_env(
        sqlite_path=str(workdir / "unused.sqlite3"),
        database_url=REL_DATABASE_URL,
        redis_url=REL_REDIS_URL,
        H2H_WORKERS="2",
    )
    manage(env, "migrate", "--noinput")
    manage(env, "collectstatic", "--noinput")  # the leaderboard pages are read at the end
    return env


PREPARE = """
import json
from django.conf import settings
from django.contrib.auth import get_user_model
from django.utils import timezone
from game import engine, services
from game.storage.appends import Append, appends_store
names = json.loads({names!r})
plan = None
for name in names:
    player = get_user_model().objects.get(username=name)
    game = services.game_daily_open(player=player)
    # a ranked clock starts on Start
    services.game_start(game=services.LockedGame(game.pk), player=player, seq=1)
    plan = plan or engine.solve(game.code, key=settings.DEAL_KEY)
    moves = tuple(str(action) for action in plan[:-2])
    appends_store(appends=[Append(game.pk, 0, moves, len(plan) - 2)], at=timezone.now())
print(json.dumps({{"code": game.code, "plan": plan}}))
"""


def prepare_daily(env: dict, players: list[dict]) -> tuple[str, list]:
    """Every player's ranked daily game, stored one pair short of the win."""
    names = json.dumps([p["name"] for p in players])
    output = manage(env, "shell", "-c", PREPARE.format(names=names))
    prepared = json.loads(output.strip().splitlines()[-1])
    return prepared["code"], prepared["plan"]


async def finish_twice(servers, player, code, plan, go, opening, ready, sent) -> list:
    """The final pair from a tab on each process at the same moment; both tabs' replies."""
    async with opening:  # a few handshakes at a time: daphne's listen backlog is short
        tabs = [await open_socket(server, player["sessionid"], code) for server in servers]
    seq = tabs[0][1]["game"]["last_seq"]
    ready.append(player["name"])
    await go.wait()

    async def pair(socket):
        for offset, target in enumerate(plan[-2:], start=1):  # sent back to back, as a quick hand
            await socket.send(json.dumps({"type": "tap", "seq": seq + offset, "target": target}))
        sent.append(time.monotonic())
        replies = []  # the two replies; news of the other tab's move (no seq) is skipped
        while len(replies) < 2:
            frame = json.loads(await asyncio.wait_for(socket.recv(), REPLY_TIMEOUT_S))
            if frame.get("seq") is not None:
                replies.append(frame)
        return replies

    replies = await asyncio.gather(*(pair(socket) for socket, _ in tabs))
    for socket, _ in tabs:
        await socket.close()
    return [reply for pair_replies in replies for reply in pair_replies]


def leaderboard_names(server: Server) -> list[str]:
    with urllib.request.urlopen(server.origin + "/leaderboard/daily/", timeout=30) as page:
        html = page.read().decode()
    return re.findall(r'href="/players/([^/"]+)/"', html)


def stored_results(env: dict) -> dict:
    output = manage(env, "shell", "-c", STORED)
    return json.loads(output.strip().splitlines()[-1])


STORED = """
import json
from game.models import Result
from game.selectors.ranking import RANK_ORDER
from game.selectors.results import result_rank
ranked = Result.objects.filter(ranked=True).select_related("player__profile")
ordered = list(ranked.order_by(*RANK_ORDER, "pk"))
times = [r.finished_at.timestamp() for r in ordered]
print(json.dumps({
    "results": len(ordered),
    "players": len({r.player_id for r in ordered}),
    "won": sum(r.won for r in ordered),
    "finish_span_s": max(times) - min(times) if times else None,
    "names": [r.player.profile.display_name for r in ordered],
    "ranks": [result_rank(result=r)["rank"] for r in ordered],
    "keys": [[-r.score, r.duration_ms, r.moves, r.finished_at.timestamp()] for r in ordered],
}))
"""


def daily_run(players: int = 200) -> dict:
    workdir = Path(tempfile.mkdtemp(prefix="h2h-daily-"))
    env = scaled_env(workdir)
    everyone = make_players(env, players, prefix="racer")
    code, plan = prepare_daily(env, everyone)
    a = Server(env, log_path=str(workdir / "a.log")).start()
    b = Server(env, log_path=str(workdir / "b.log")).start()
    try:
        replies, seconds, sending = asyncio.run(everyone_finishes((a, b), everyone, code, plan))
        boards = [leaderboard_names(a), leaderboard_names(b)]
    finally:
        a.stop()
        b.stop()
    logs = Path(a.log_path).read_text() + Path(b.log_path).read_text()
    stored = stored_results(env)
    sent = [reply for pair in replies for reply in pair]
    keys = [tuple(key) for key in stored["keys"]]  # RANK_ORDER's, smaller is better
    return {
        "players": players,
        "code": code,
        "final_pairs_sent": 2 * len(replies),
        "all_final_taps_sent_within_s": round(sending, 2),
        "all_answered_within_s": round(seconds, 2),
        "results": stored["results"],
        "distinct_players": stored["players"],
        "won": stored["won"],
        "winning_replies": sum(r.get("event") == "pair" and r["view"]["won"] for r in sent),
        "refusals": sorted({r["error"] for r in sent if r["type"] == "error"}),
        "finish_span_s": round(stored["finish_span_s"], 3),
        "same_board_on_both": boards[0] == boards[1],
        "board_in_rank_order": bool(boards[0]) and boards[0] == stored["names"][: len(boards[0])],
        "ranks_match_order": stored["ranks"] == [1 + sum(k < key for k in keys) for key in keys],
        "tracebacks": logs.count("Traceback"),
    }


async def everyone_finishes(servers, everyone, code, plan) -> tuple[list, float, float]:
    go, opening, ready, sent = asyncio.Event(), asyncio.Semaphore(20), [], []
    finishing = (finish_twice(servers, p, code, plan, go, opening, ready, sent) for p in everyone)
    tasks = [asyncio.create_task(task) for task in finishing]
    while len(ready) < len(everyone) and not any(task.done() for task in tasks):
        await asyncio.sleep(0.1)  # until every tab is open and greeted
    started = time.monotonic()
    go.set()
    replies = await asyncio.gather(*tasks)
    return replies, time.monotonic() - started, max(sent) - started


# Two tabs of one game on two processes ----------------------------------------------------


class Tab:
    """One socket of the shared game: it numbers on past every last_seq it hears of."""

    def __init__(self, socket, first: dict) -> None:
        self.socket, self.view = socket, first["view"]
        self.next_seq = first["game"]["last_seq"] + 1
        self.refused: dict[str, int] = {}
        self.unanswered: list[dict] = []

    def heard(self, frame: dict) -> None:
        if frame["type"] == "state":
            self.view = frame["view"]
        last = (frame.get("game") or {}).get("last_seq")
        if last is not None:
            self.next_seq = max(self.next_seq, last + 1)

    async def act(self, rng: random.Random) -> None:
        seq, self.next_seq = self.next_seq, self.next_seq + 1
        kind, target = policy.next_action(self.view, rng)
        frame = {"type": kind, "seq": seq} | ({"target": target} if kind == "tap" else {})
        await self.socket.send(json.dumps(frame))
        while True:
            try:
                reply = json.loads(await asyncio.wait_for(self.socket.recv(), REPLY_TIMEOUT_S))
            except TimeoutError:
                self.unanswered.append(frame)  # a lost reply: the tab stops tapping
                return
            self.heard(reply)
            if reply.get("seq") == seq:
                if reply["type"] == "error":
                    self.refused[reply["error"]] = self.refused.get(reply["error"], 0) + 1
                return

    async def settle(self) -> None:
        """Take in the other tab's last news."""
        try:
            while True:
                self.heard(json.loads(await asyncio.wait_for(self.socket.recv(), 1)))
        except TimeoutError:
            return


async def two_tabs(servers, player: dict, code: str, seconds: float) -> list[Tab]:
    tabs = [Tab(*await open_socket(server, player["sessionid"], code)) for server in servers]
    until = time.monotonic() + seconds

    async def tap(tab: Tab, rng: random.Random) -> None:
        while time.monotonic() < until and not (tab.view["won"] or tab.view["deadlocked"]):
            if tab.unanswered:
                return
            await tab.act(rng)
            await asyncio.sleep(rng.uniform(0.08, 0.2))  # quick hands, inside the rate limit

    await asyncio.gather(*(tap(tab, random.Random(n)) for n, tab in enumerate(tabs)))
    await asyncio.gather(*(tab.settle() for tab in tabs))
    for tab in tabs:
        await tab.socket.close()
    return tabs


STORED_LOG = """
import json
from game.models import Game
game = Game.objects.get(code={code!r})
actions = list(game.actions.order_by("index").values_list("action", flat=True))
print(json.dumps({{"actions": actions, "count": game.action_count, "last_seq": game.last_seq}}))
"""


def tabs_run(seconds: float = 10) -> dict:
    workdir = Path(tempfile.mkdtemp(prefix="h2h-tabs-"))
    env = scaled_env(workdir)
    (player,) = make_players(env, 1, prefix="tabs")
    winnable = (c for c in iter(engine.random_code, None) if engine.solve(c, key=HARNESS_DEAL_KEY))
    code = next(winnable)  # a long game
    a = Server(env, log_path=str(workdir / "a.log")).start()
    b = Server(env, log_path=str(workdir / "b.log")).start()
    try:
        tabs = asyncio.run(two_tabs((a, b), player, code, seconds))
    finally:
        a.stop()
        b.stop()
    stored = json.loads(manage(env, "shell", "-c", STORED_LOG.format(code=code)).splitlines()[-1])
    state = engine.replay(code, stored["actions"], key=HARNESS_DEAL_KEY)  # raises if invalid
    board = {key: engine.public_view(state)[key] for key in BOARD}
    return {
        "seconds": seconds,
        "actions": len(stored["actions"]),
        "count_matches": stored["count"] == len(stored["actions"]),
        "both_tabs_show_the_stored_game": all(
            {key: tab.view[key] for key in BOARD} == board for tab in tabs
        ),
        "refused": [tab.refused for tab in tabs],
        "unanswered": [frame for tab in tabs for frame in tab.unanswered],
    }
