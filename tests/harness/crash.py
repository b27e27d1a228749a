"""Crash harness: play against a real daphne, kill -9 it at random moments, restart, check.

`run` does it (`python -m bench.crash` runs 100 kills, tests/system/test_crash.py 20). Every
trial restarts the server over the same SQLite file, reconnects every player to their game and
checks that no acknowledged move was lost and none was applied twice (the unanswered move in
flight is resent with its seq: it must apply exactly once). At the end every stored game must
equal the replay of its action log and SQLite's integrity_check must say ok.
"""

import asyncio
import json
import random
import sqlite3
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from websockets.asyncio.client import connect
from websockets.exceptions import WebSocketException

from game import engine
from tests.harness import policy
from tests.harness.server import HARNESS_DEAL_KEY, Server, make_players, manage, server_env

PAUSE_S = 0.04  # brisk: more kills land while a move is in flight (the rate limit is off)
COMPARED = ("heart", "stock", "waste", "score", "moves", "undos", "won", "deadlocked")


@dataclass
class Player:
    name: str
    sessionid: str
    code: str
    acked: dict | None = None  # the view after the last acknowledged frame
    acked_seq: int = 0
    pending: dict | None = None  # a frame sent whose reply never came
    problems: list[str] = field(default_factory=list)
    answered: int = 0  # frames answered
    resent: int = 0  # frames in flight at a kill, sent again after the restart
    stored_before_kill: int = 0  # of those, already stored: refused as duplicate_seq


def board(view: dict) -> dict:
    return {key: view[key] for key in COMPARED}


async def resume(server: Server, player: Player) -> tuple:
    headers = {"Cookie": f"sessionid={player.sessionid}", "Origin": server.origin}
    socket = await connect(server.ws_url(f"/ws/play/{player.code}/"), additional_headers=headers)
    first = json.loads(await socket.recv())
    view, stored_seq = first["view"], first["game"]["last_seq"]
    if player.acked is not None:
        check_resumed(player, view, stored_seq)
    player.acked = view  # from here on the server's word is the acknowledged board
    if player.pending is not None:
        view = await resend(socket, player, stored_seq, view)
    return socket, view, max(stored_seq, player.acked_seq)


def check_resumed(player: Player, view: dict, stored_seq: int) -> None:
    if stored_seq < player.acked_seq and player.acked["moves"] != view["moves"]:
        player.problems.append(f"lost: acked seq {player.acked_seq}, stored {stored_seq}")
    in_flight = player.pending is not None and stored_seq == player.pending["seq"]
    if not in_flight and board(view) != board(player.acked):
        differs = [k for k in COMPARED if view[k] != player.acked[k]]
        player.problems.append(
            f"resumed board differs ({differs}) from the acked one at {stored_seq}"
        )


async def resend(socket, player: Player, stored_seq: int, view: dict) -> dict:
    """The unanswered frame again, same seq: applied now if it was not, refused if it was."""
    frame = player.pending
    await socket.send(json.dumps(frame))
    reply = json.loads(await socket.recv())
    player.pending = None  # only now: a kill before the reply leaves it in flight still
    applied_before = stored_seq >= frame["seq"]
    player.resent += 1
    player.stored_before_kill += applied_before
    if applied_before and reply.get("error") != "duplicate_seq":
        player.problems.append(f"seq {frame['seq']} stored and then applied again")
    if reply["type"] == "state":
        player.acked, player.acked_seq = reply["view"], frame["seq"]
        return reply["view"]
    return view


async def play(server: Server, player: Player, rng: random.Random) -> None:
    try:
        socket, view, seq = await resume(server, player)
        async with socket:
            while not (view["won"] or view["deadlocked"]):
                seq += 1
                kind, target = policy.next_action(view, rng)
                frame = {"type": kind, "seq": seq} | ({"target": target} if kind == "tap" else {})
                player.pending = frame
                await socket.send(json.dumps(frame))
                reply = json.loads(await socket.recv())
                player.pending = None
                if reply["type"] == "error":
                    player.problems.append(f"error {reply['error']} on {frame}")
                    return
                view, player.acked, player.acked_seq = reply["view"], reply["view"], seq
                player.answered += 1
                await asyncio.sleep(PAUSE_S)
    except (WebSocketException, OSError):
        return  # the server was killed: exactly what this harness is for


async def trial(server: Server, players: list[Player], rng: random.Random) -> None:
    tasks = [asyncio.create_task(play(server, player, rng)) for player in players]
    await asyncio.sleep(rng.uniform(0.05, 1.0))
    server.kill()
    await asyncio.gather(*tasks)


def stored_games_match_their_logs(sqlite_path: str) -> list[str]:
    problems = []
    with sqlite3.connect(sqlite_path) as db:
        games = db.execute("SELECT id, code, action_count FROM game_game").fetchall()
        for game_id, code, count in games:
            actions = [
                row[0]
                for row in db.execute(
                    'SELECT action FROM game_action WHERE game_id = ? ORDER BY "index"', (game_id,)
                )
            ]
            if len(actions) != count:
                problems.append(f"game {game_id}: {len(actions)} actions, count says {count}")
            engine.replay(code, actions, key=HARNESS_DEAL_KEY)  # raises on an illegal log
        (verdict,) = db.execute("PRAGMA integrity_check").fetchone()
    if verdict != "ok":
        problems.append(f"integrity_check: {verdict}")
    return problems


def run(trials: int, player_count: int, seed: int = 1) -> dict:
    workdir = Path(tempfile.mkdtemp(prefix="h2h-crash-"))
    sqlite_path = str(workdir / "crash.sqlite3")
    env = server_env(sqlite_path=sqlite_path, H2H_TAP_RATE="0")
    manage(env, "migrate", "--noinput")
    rng = random.Random(seed)
    players = [
        Player(p["name"], p["sessionid"], engine.random_code())
        for p in make_players(env, player_count, prefix="crash")
    ]
    server = Server(env, log_path=str(workdir / "daphne.log"))
    started = time.monotonic()
    for _ in range(trials):
        server.start()
        asyncio.run(trial(server, players, rng))
        for player in players:
            if player.acked and (player.acked["won"] or player.acked["deadlocked"]):
                player.code, player.acked, player.acked_seq = engine.random_code(), None, 0
    server.start()
    asyncio.run(final_checks(server, players))
    server.stop()
    problems = [problem for player in players for problem in player.problems]
    return {
        "trials": trials,
        "players": player_count,
        "seconds": round(time.monotonic() - started, 1),
        "frames_answered": sum(p.answered for p in players),
        "unanswered_at_a_kill": sum(p.resent for p in players),
        "of_those_already_stored": sum(p.stored_before_kill for p in players),
        **stored_counts(sqlite_path),
        "problems": problems + stored_games_match_their_logs(sqlite_path),
    }


def stored_counts(sqlite_path: str) -> dict:
    with sqlite3.connect(sqlite_path) as db:
        games = db.execute("SELECT COUNT(*) FROM game_game").fetchone()[0]
        actions = db.execute("SELECT COUNT(*) FROM game_action").fetchone()[0]
    return {"games_stored": games, "actions_stored": actions}


async def final_checks(server: Server, players: list[Player]) -> None:
    for player in players:
        socket, _view, _seq = await asyncio.wait_for(resume(server, player), 10)
        await socket.close()
