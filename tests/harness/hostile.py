"""Hostile frames against a real daphne while honest players keep playing: `attack`, on a
started server (tests/system/test_hostile.py; `python -m bench.hostile` starts one of its own).

Hypothesis generates every frame: invalid UTF-8 and JSON, JSON that is not an object, wrong
types, unknown types and targets, huge, negative and float seqs, strings up to 1 MB, deep
nesting, binary frames. None of them is a move the game allows. Each must be answered by an
error frame, or by a close with a proper code (1007 invalid UTF-8, 1009 too big): never 1011,
never a traceback in the server's log. Meanwhile honest players see 0 errors, their stored
games equal what they were shown, the hostile player's game never changes, and the server's
memory grows less than 20 MB. The attack reports its figures and every problem found.
"""

import json
import random
import sqlite3
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from hypothesis import HealthCheck, Phase, given, seed, settings
from hypothesis import strategies as st
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from game import engine
from tests.harness import policy
from tests.harness.server import HARNESS_DEAL_KEY, Server

CODE = "HH1-N-AAAAAAC"
MAX_SEQ = 2**53
PROPER_CLOSES = {1007: "invalid UTF-8", 1009: "too big for daphne", 4008: "flooding"}
HONEST_PAUSE_S = 0.15  # about six taps a second, as a quick hand
BOARD = ("heart", "stock", "waste", "score", "moves", "undos", "won", "deadlocked")

# Strategies -----------------------------------------------------------------------------

MISSING = object()
json_scalars = st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=30)
json_values = st.recursive(
    json_scalars,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
valid_seqs = st.integers(1, MAX_SEQ)
bad_seqs = st.one_of(
    st.just(MISSING),
    st.none(),
    st.booleans(),
    st.integers(max_value=0),
    st.integers(min_value=MAX_SEQ + 1),
    st.floats(),
    st.integers(1, 99).map(float),
    st.integers(1, 99).map(str),
    json_values.filter(lambda v: type(v) is not int),
)
any_seqs = valid_seqs | bad_seqs


def _is_target(value) -> bool:
    try:
        engine.parse_target(value)
    except engine.ParseError:
        return False
    return True


bad_targets = st.one_of(
    st.just(MISSING),
    st.integers().filter(lambda n: not 1 <= n <= 25),
    st.sampled_from(["Stock", "WASTE", "heart", "", " 1", "1.0", "0", "26", "-1", "stock "]),
    json_values,
).filter(lambda value: value is MISSING or not _is_target(value))
good_targets = st.integers(1, 25) | st.sampled_from(["stock", "waste"])
bad_types = st.one_of(
    st.just(MISSING),
    st.sampled_from(["Tap", "TAP", "taps", "move", "win", "finish", "score", "result", ""]),
    json_values,
).filter(lambda kind: kind not in ("tap", "undo", "resign", "settings"))
# Fields a cheat might add: none of them is ever read.
extras = st.dictionaries(
    st.sampled_from(["score", "time", "moves", "won", "game", "player", "duration_ms", "x"]),
    json_values,
    max_size=3,
)


def _object(**fields) -> st.SearchStrategy:
    def build(values):
        values = dict(values)
        extra = values.pop("extra")
        frame = {key: value for key, value in values.items() if value is not MISSING}
        return json.dumps({**extra, **frame})

    return st.fixed_dictionaries({**fields, "extra": extras}).map(build)


objects = st.one_of(
    _object(type=st.just("tap"), seq=valid_seqs, target=bad_targets),
    _object(type=st.just("tap"), seq=bad_seqs, target=good_targets | bad_targets),
    _object(type=st.just("undo"), seq=any_seqs),  # nothing to undo: the game never moves
    _object(type=st.just("resign"), seq=bad_seqs),
    _object(type=st.just("settings"), seq=bad_seqs, placement_help=st.booleans() | json_values),
    _object(
        type=st.just("settings"),
        seq=valid_seqs,
        placement_help=json_values.filter(lambda v: not isinstance(v, bool)),
    ),
    _object(type=bad_types, seq=any_seqs, target=good_targets | bad_targets),
)
not_objects = json_values.filter(lambda v: not isinstance(v, dict)).map(json.dumps)
not_json = st.one_of(
    st.text(max_size=200),
    objects.map(lambda text: text[: len(text) // 2]),  # cut short
    objects.map(lambda text: text + ","),  # trailing junk
    st.sampled_from(["{'type': 'tap'}", "{type: tap}", "[1,]", "NaN]", "\x00", '{"a":1}{"b":2}']),
)
deep = st.integers(1, 20_000).flatmap(
    lambda depth: st.sampled_from(
        ["[" * depth + "]" * depth, '{"a":' * depth + "1" + "}" * depth, "[" * depth]
    )
)
huge = st.integers(1_025, 1_100_000).flatmap(
    lambda size: st.sampled_from(
        [
            json.dumps({"type": "tap", "seq": 1, "target": "x" * size}),
            "é" * (size // 2),
            '{"seq": ' + "9" * size + "}",
        ]
    )
)
binary = st.binary(max_size=300) | st.integers(4_097, 70_000).map(lambda n: b"\x00" * n)
bad_utf8 = st.binary(min_size=1, max_size=64).map(
    lambda b: b'{"type": "tap", "seq": 1' + b + b"\xff}"
)

# (kind, payload): "text" sends a str, "binary" bytes, "raw" bytes as a text frame.
frames = st.one_of(
    objects.map(lambda t: ("text", t)),
    objects.map(lambda t: ("text", t)),
    not_objects.map(lambda t: ("text", t)),
    not_json.map(lambda t: ("text", t)),
    deep.map(lambda t: ("text", t)),
    huge.map(lambda t: ("text", t)),
    binary.map(lambda b: ("binary", b)),
    bad_utf8.map(lambda b: ("raw", b)),
)


# The hostile client --------------------------------------------------------------------


def open_socket(server: Server, sessionid: str, code: str = CODE):
    headers = {"Cookie": f"sessionid={sessionid}"}
    ws = connect(
        server.ws_url(f"/ws/play/{code}/"),
        origin=server.origin,
        additional_headers=headers,
        max_size=2**22,
        open_timeout=10,
        legacy=True,  # kept open across calls, closed by its owner
    )
    first = json.loads(ws.recv(timeout=10))
    assert first["type"] == "state", first
    return ws, first


@dataclass
class Tally:
    frames: int = 0
    errors: dict = field(default_factory=dict)  # error code -> count
    closes: dict = field(default_factory=dict)  # close code -> count
    problems: list = field(default_factory=list)


class Hostile:
    """One player sending bad frames on one socket, reconnecting after each proper close."""

    def __init__(self, server: Server, sessionid: str) -> None:
        self.server, self.sessionid, self.tally = server, sessionid, Tally()
        self.ws, _ = open_socket(server, sessionid)

    def send(self, kind: str, payload) -> None:
        self.tally.frames += 1
        try:
            if kind == "raw":
                self.ws.send(payload, text=True)
            else:
                self.ws.send(payload)
            reply = self.ws.recv(timeout=10)
        except ConnectionClosed as closed:
            return self._closed(closed, kind, payload)
        self._check(json.loads(reply), kind, payload)

    def _check(self, reply: dict, kind: str, payload) -> None:
        error, message = reply.get("error"), reply.get("message")
        if reply.get("type") != "error" or not isinstance(error, str) or not message:
            self.tally.problems.append(f"{kind} {str(payload)[:80]!r} -> {str(reply)[:200]}")
            return
        self.tally.errors[reply["error"]] = self.tally.errors.get(reply["error"], 0) + 1

    def _closed(self, closed: ConnectionClosed, kind: str, payload) -> None:
        code = closed.rcvd.code if closed.rcvd else None
        self.tally.closes[code] = self.tally.closes.get(code, 0) + 1
        if code not in PROPER_CLOSES:
            self.tally.problems.append(f"close {code} after {kind} {str(payload)[:80]!r}")
        self.ws, _ = open_socket(self.server, self.sessionid)

    def close(self) -> None:
        self.ws.close()


def drive(hostile: Hostile, count: int, random_seed: int) -> None:
    """Send `count` hypothesis-generated frames through `hostile`."""

    @seed(random_seed)
    @settings(
        max_examples=count,
        database=None,
        deadline=None,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(frame=frames)
    def send_one(frame):
        hostile.send(*frame)

    if count:
        send_one()


# Honest players -------------------------------------------------------------------------


@dataclass
class Honest:
    name: str
    sessionid: str
    frames: int = 0
    games: list = field(default_factory=list)  # (code, the last view shown)
    problems: list = field(default_factory=list)


def play_honestly(server: Server, player: Honest, stop: threading.Event) -> None:
    rng = random.Random(player.name)
    while not stop.is_set():
        code = engine.random_code()
        try:
            ws, first = open_socket(server, player.sessionid, code)
            with ws:
                view = play_one(ws, first, player, rng, stop)
        except (ConnectionClosed, OSError, TimeoutError) as error:
            player.problems.append(f"{code}: {error!r}")
            return
        player.games.append((code, view))


def play_one(ws, first: dict, player: Honest, rng: random.Random, stop) -> dict:
    view, seq = first["view"], first["game"]["last_seq"]
    while not stop.is_set() and not (view["won"] or view["deadlocked"]):
        seq += 1
        kind, target = policy.next_action(view, rng)
        frame = {"type": kind, "seq": seq} | ({"target": target} if kind == "tap" else {})
        ws.send(json.dumps(frame))
        reply = json.loads(ws.recv(timeout=10))
        if reply.get("type") != "state" or reply.get("seq") != seq:
            player.problems.append(f"{frame} -> {str(reply)[:200]}")
            stop.wait(1)
            continue
        view, player.frames = reply["view"], player.frames + 1
        time.sleep(HONEST_PAUSE_S)
    return view


# Checks -----------------------------------------------------------------------------------


def stored_games(sqlite_path: str, username: str) -> dict[str, list[str]]:
    """code -> action log of each game of the player, read from the server's SQLite file."""
    with sqlite3.connect(sqlite_path) as db:
        rows = db.execute(
            "SELECT g.id, g.code FROM game_game g JOIN auth_user u ON u.id = g.player_id"
            " WHERE u.username = ?",
            (username,),
        ).fetchall()
        return {
            code: [
                a
                for (a,) in db.execute(
                    'SELECT action FROM game_action WHERE game_id = ? ORDER BY "index"', (gid,)
                )
            ]
            for gid, code in rows
        }


def check_honest(sqlite_path: str, player: Honest) -> list[str]:
    """Each game's stored log replays to exactly the board the player was last shown."""
    problems = list(player.problems)
    logs = stored_games(sqlite_path, player.name)
    for code, view in player.games:
        state = engine.replay(code, logs.get(code, []), key=HARNESS_DEAL_KEY)
        shown, stored = (
            {k: view[k] for k in BOARD},
            {k: engine.public_view(state)[k] for k in BOARD},
        )
        if shown != stored:
            problems.append(f"{player.name} {code}: stored game differs from the one shown")
    return problems


def log_tracebacks(log_path: str, offset: int) -> list[str]:
    text = Path(log_path).read_bytes()[offset:].decode("utf-8", "replace")
    return [line for line in text.splitlines() if "Traceback" in line or "Exception" in line]


def attack(server: Server, players: list[dict], *, frames: int, honest: int, seed: int) -> dict:
    """Run the attack on a started server; players[0] is hostile, the next `honest` play."""
    offset = Path(server.log_path).stat().st_size
    sqlite_path = server.env["H2H_SQLITE_PATH"]
    hostile = Hostile(server, players[0]["sessionid"])
    hostile_name = players[0]["name"]
    before_hostile = stored_games(sqlite_path, hostile_name)
    good = [Honest(p["name"], p["sessionid"]) for p in players[1 : 1 + honest]]
    stop = threading.Event()
    threads = [threading.Thread(target=play_honestly, args=(server, p, stop)) for p in good]
    for thread in threads:
        thread.start()
    drive(hostile, min(200, frames), seed)  # warm-up: every code path loaded once
    # The server's own memory: its par child, started when a game first ends, holds a bounded
    # 18-27 MB of its own that would count as growth whenever it starts in between.
    rss_before, started = server.rss_mb(children=False), time.monotonic()
    drive(hostile, max(0, frames - 200), seed + 1)
    seconds = time.monotonic() - started
    stop.set()
    for thread in threads:
        thread.join(30)
    hostile.close()
    rss_after = server.rss_mb(children=False)
    tally = hostile.tally
    after_hostile = stored_games(sqlite_path, hostile_name)
    problems = list(tally.problems) + log_tracebacks(server.log_path, offset)
    if any(after_hostile.values()) or before_hostile.keys() - after_hostile.keys():
        problems.append(f"the hostile player's game changed: {after_hostile}")
    for player in good:
        problems += check_honest(sqlite_path, player)
    return {
        "frames": tally.frames,
        "frames_per_s": round((tally.frames - min(200, frames)) / max(seconds, 1e-9)),
        "errors": dict(sorted(tally.errors.items())),
        "closes": {str(k): v for k, v in sorted(tally.closes.items(), key=str)},
        "honest_players": len(good),
        "honest_frames": sum(p.frames for p in good),
        "honest_games": sum(len(p.games) for p in good),
        "rss_before_mb": round(rss_before, 1),
        "rss_growth_mb": round(rss_after - rss_before, 1),
        "problems": problems,
    }
