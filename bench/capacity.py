"""Per-component costs for capacity planning: what one game asks of each part of the site.

    python -m bench.capacity [--seconds 3] [--database-url URL] [--redis-url URL]

Prints one JSON object per component (docs/performance.md, "Capacity", builds on them):
- `play`: the benchmark's players (tests/harness/policy.py) on the engine alone: taps per game,
  how many of them store a move, actions per move;
- `database`: moves stored by the play sockets' own write (game.storage.appends.appends_store,
  one transaction per batch as the group commit makes them) for batch sizes 1 to 200, each
  move on a game of its own; commits and moves per second, on a fresh SQLite file and, with
  --database-url, on PostgreSQL (a database of its own, dropped and created afresh); and
  games opened per second (game_resume of a new code: a socket's connect);
- `channel_layer` (with --redis-url): channels_redis round trips (send to a channel, receive
  it) by many concurrent senders, group_send to a game's group of two, and the audience
  check (one ZCARD), in messages per second.
The taps a process serves come from `python -m bench.load` (taps_per_s, tap_cpu_ms).
"""

import argparse
import asyncio
import json
import random
import tempfile
import time
from pathlib import Path

from game import engine
from game.engine.codes import SEED_SPACE
from tests.harness import policy
from tests.harness.server import fresh_database, make_players, manage, server_env

BATCHES = (1, 10, 50, 200)
GAMES = 200  # the benchmark's games: every batch appends to each of them at most once
SENDERS = 50  # concurrent channel-layer senders


def play_figures(games: int = 500) -> dict:
    """Taps, moves and actions of `games` games played by tests/harness/policy.py on the engine."""
    rng, taps, moves, actions = random.Random(1), 0, 0, 0
    for _ in range(games):
        state = engine.new_game(engine.format_code("N", rng.randrange(SEED_SPACE)))
        while not (state.won or state.deadlocked):
            kind, target = policy.next_action(engine.public_view(state), rng)
            state, event = (
                (engine.undo(state), None) if kind == "undo" else engine.tap(state, target)
            )
            taps += 1
            if event is None or event.is_move:  # an undo is stored as an action too
                moves += 1
                actions += 2 if event == engine.Event.PAIR else 1
    return {
        "component": "play",
        "games": games,
        "taps_per_game": round(taps / games, 1),
        "moves_per_tap": round(moves / taps, 3),
        "actions_per_move": round(actions / moves, 3),
    }


def _per_second(seconds: float, step) -> float:
    """How many times a second `step()` returns, for `seconds`; it returns how many it did."""
    done, started = 0, time.perf_counter()
    while time.perf_counter() - started < seconds:
        done += step()
    return done / (time.perf_counter() - started)


def _append_rates(games: list, seconds: float) -> dict:
    """Commits and moves a second for each batch size, one move per game in a batch."""
    from django.utils import timezone

    from game.storage.appends import Append, appends_store

    counts, rates = {game.pk: 0 for game in games}, {}
    for size in BATCHES:

        def commit(size=size) -> int:
            chosen = random.sample(list(counts), size)
            appends = [Append(pk, counts[pk], ("stock",), None) for pk in chosen]
            for pk, ok in zip(
                chosen, appends_store(appends=appends, at=timezone.now()), strict=True
            ):
                counts[pk] += ok
            return 1

        commits = _per_second(seconds, commit)
        rates[size] = {"commits_per_s": round(commits), "moves_per_s": round(commits * size)}
    return rates


def database_figures(seconds: float, player: str) -> None:
    """Run inside `manage.py shell`: the appends' and the connects' rates, printed as JSON."""
    from django.contrib.auth import get_user_model
    from django.db import connection

    from game.services.games import game_resume

    user = get_user_model().objects.get(username=player)

    def open_one() -> int:
        return bool(game_resume(player=user, code=engine.random_code()))

    games = [game_resume(player=user, code=engine.random_code()) for _ in range(GAMES)]
    figures = {"component": "database", "vendor": connection.vendor}
    figures["batches"] = _append_rates(games, seconds)
    figures["games_opened_per_s"] = round(_per_second(seconds, open_one))
    print(json.dumps(figures))


def measure_database(env: dict, seconds: float) -> dict:
    manage(env, "migrate", "--noinput")
    player = make_players(env, 1, prefix="capacity")[0]["name"]
    code = f"from bench.capacity import database_figures; database_figures({seconds}, {player!r})"
    return json.loads(manage(env, "shell", "-c", code).strip().splitlines()[-1])


async def _rate(seconds: float, step) -> float:
    """How many times a second SENDERS concurrent loops of `step` complete."""
    done, deadline = [0], time.perf_counter() + seconds

    async def loop(number: int) -> None:
        while time.perf_counter() < deadline:
            await step(number)
            done[0] += 1

    started = time.perf_counter()
    await asyncio.gather(*(loop(number) for number in range(SENDERS)))
    return done[0] / (time.perf_counter() - started)


async def channel_layer_figures(redis_url: str, seconds: float) -> dict:
    from channels_redis.core import RedisChannelLayer

    layer = RedisChannelLayer(hosts=[redis_url], prefix=f"capacity{random.randrange(10**6)}")
    channels = [await layer.new_channel() for _ in range(SENDERS)]
    groups = [f"game.{number}" for number in range(SENDERS)]
    for channel, group in zip(channels, groups, strict=True):
        await layer.group_add(group, channel)
        await layer.group_add(group, await layer.new_channel())  # a spectator that never reads

    async def round_trip(number: int) -> None:
        await layer.send(channels[number], {"type": "game.state", "view": "x" * 1000})
        await layer.receive(channels[number])

    async def group_send(number: int) -> None:
        await layer.group_send(groups[number], {"type": "game.state", "view": "x" * 1000})
        await layer.receive(channels[number])

    async def audience(number: int) -> None:
        connection = layer.connection(layer.consistent_hash(groups[number]))
        await connection.zcard(layer._group_key(groups[number]))

    figures = {
        "component": "channel_layer",
        "round_trips_per_s": round(await _rate(seconds, round_trip)),
        "group_sends_per_s": round(await _rate(seconds, group_send)),
        "audience_checks_per_s": round(await _rate(seconds, audience)),
    }
    await layer.flush()
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3)
    parser.add_argument("--database-url", default="")
    parser.add_argument("--redis-url", default="")
    args = parser.parse_args()
    print(json.dumps(play_figures()), flush=True)
    sqlite_path = str(Path(tempfile.mkdtemp(prefix="h2h-capacity-")) / "capacity.sqlite3")
    print(
        json.dumps(measure_database(server_env(sqlite_path=sqlite_path), args.seconds)), flush=True
    )
    if args.database_url:
        fresh_database(args.database_url)
        env = server_env(sqlite_path=sqlite_path, database_url=args.database_url)
        print(json.dumps(measure_database(env, args.seconds)), flush=True)
    if args.redis_url:
        print(json.dumps(asyncio.run(channel_layer_figures(args.redis_url, args.seconds))))


if __name__ == "__main__":
    main()
