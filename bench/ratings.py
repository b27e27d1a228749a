"""The daily rating job at scale: one day of many ranked results, rated with its database.

    python -m bench.ratings [--results 100000] [--runs 3] [--database-url URL]

Creates that many players and their ranked results on one day (bulk, on a fresh SQLite file,
or with --database-url on PostgreSQL, a database of its own dropped and created afresh), gives
four players in five a stored Daily rating (N(1500, 300), RD 45 to 350) so that the field spans
many bins, and times game.services.ratings.ratings_rate_day on the ended day: reading the field
and the ratings, the virtual games, and writing every rating, its change and the deal's
difficulty. Each run rates the same field afresh (its day unrated, the stored ratings put back,
outside the timing). Prints one JSON object per run, then the median (docs/performance.md,
"Rating a day").

First it prints the bins' error (docs/ratings.md, "Large days"): a field of --error-results
(2,000) rated in bins and pair by pair, the largest and the mean difference in rating and RD.
"""

import argparse
import json
import statistics
import tempfile
import time
from pathlib import Path

from tests.harness.server import fresh_database, manage, server_env

SEED = 24


def binning_error(results: int) -> dict:
    """The binned field against the exact one: ratings N(1500, 300) and RD 45 to 350, a fifth
    of them newcomers, placed by a noisy skill (upsets happen) with some ties."""
    import random

    from game.domain.glicko2 import START, Glicko
    from game.domain.virtual_games import field_rated, places

    rng = random.Random(SEED)
    players = [
        START
        if rng.random() < 0.2
        else Glicko(rng.gauss(1500, 300), rng.uniform(45, 350), rng.uniform(0.04, 0.1))
        for _ in range(results)
    ]
    skill = [round((player.rating + rng.gauss(0, 300)) / 20) for player in players]
    field = list(zip(players, places([-value for value in skill]), strict=True))
    exact = field_rated(field, exact_limit=results)
    binned = field_rated(field, exact_limit=0)
    pairs = list(zip(exact, binned, strict=True))
    rating = [abs(a.rating - b.rating) for a, b in pairs]
    deviation = [abs(a.deviation - b.deviation) for a, b in pairs]
    return {
        "binning_error": {
            "results": results,
            "max_rating": float(f"{max(rating):.2g}"),
            "mean_rating": float(f"{statistics.mean(rating):.2g}"),
            "max_deviation": float(f"{max(deviation):.2g}"),
        }
    }


def populate(results: int) -> None:
    """The players, the day (yesterday) and its ranked results, in bulk."""
    import datetime
    import random

    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from game.models import DailyDeal, Game, Result
    from game.selectors.daily import daily_today

    rng, now = random.Random(SEED), timezone.now()
    users = [get_user_model()(username=f"rated{n}", password="!") for n in range(results)]
    users = get_user_model().objects.bulk_create(users, batch_size=5000)
    day = DailyDeal.objects.create(
        date=daily_today() - datetime.timedelta(days=1), code="HH1-D-BENCHRT"
    )
    games = [
        Game(
            player=user,
            code=day.code,
            daily=day,
            ranked=True,
            status=Game.Status.WON,
            started_at=now,
        )
        for user in users
    ]
    games = Game.objects.bulk_create(games, batch_size=5000)
    Result.objects.bulk_create([_result(game, rng, now) for game in games], batch_size=5000)


def _result(game, rng, now):
    from game.models import Result

    won = rng.random() < 0.4
    return Result(
        game=game,
        player_id=game.player_id,
        code=game.code,
        daily_id=game.daily_id,
        ranked=True,
        won=won,
        score=250 if won else rng.randrange(0, 240, 2),
        moves=rng.randrange(60, 160),
        undos=0,
        placement_help=False,
        duration_ms=rng.randrange(60_000, 1_800_000),
        finished_at=now,
    )


def reset() -> None:
    """The day unrated, and four players in five with a spread of stored ratings."""
    import datetime
    import random

    from django.utils import timezone

    from game.models import DailyDeal, DealRating, Rating, RatingChange, Result

    rng = random.Random(SEED)
    RatingChange.objects.all().delete()
    Rating.objects.all().delete()
    DealRating.objects.all().delete()
    DailyDeal.objects.update(rated_at=None)
    since = timezone.now() - datetime.timedelta(days=3)
    players = Result.objects.values_list("player_id", flat=True)
    stored = [
        Rating(
            player_id=player,
            kind="daily",
            rating=rng.gauss(1500, 300),
            deviation=rng.uniform(45, 350),
            volatility=0.06,
            games=5,
            rated_at=since,
        )
        for player in players.iterator(chunk_size=5000)
        if rng.random() < 0.8
    ]
    Rating.objects.bulk_create(stored, batch_size=5000)


def timed_run() -> None:
    """One reset and one timed rating of the day; prints its figures as JSON."""
    from django.db import connection

    from game.models import DailyDeal, RatingChange
    from game.services.ratings import ratings_rate_day

    reset()
    day = DailyDeal.objects.get()
    started = time.perf_counter()
    assert ratings_rate_day(date=day.date)
    seconds = time.perf_counter() - started
    changes = RatingChange.objects.count()
    print(
        json.dumps({"vendor": connection.vendor, "results": changes, "seconds": round(seconds, 2)})
    )


def measure(env: dict, results: int, runs: int) -> list[dict]:
    manage(env, "migrate", "--noinput")
    manage(env, "shell", "-c", f"from bench.ratings import populate; populate({results})")
    figures = []
    for _ in range(runs):
        output = manage(env, "shell", "-c", "from bench.ratings import timed_run; timed_run()")
        figures.append(json.loads(output.strip().splitlines()[-1]))
        print(json.dumps(figures[-1]), flush=True)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--results", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--database-url", default="")
    parser.add_argument("--error-results", type=int, default=2000)
    args = parser.parse_args()
    print(json.dumps(binning_error(args.error_results)), flush=True)
    sqlite_path = str(Path(tempfile.mkdtemp(prefix="h2h-ratings-")) / "ratings.sqlite3")
    env = server_env(sqlite_path=sqlite_path)
    if args.database_url:
        fresh_database(args.database_url)
        env = server_env(sqlite_path=sqlite_path, database_url=args.database_url)
    figures = measure(env, args.results, args.runs)
    median = statistics.median(figure["seconds"] for figure in figures)
    print(json.dumps({"vendor": figures[0]["vendor"], "results": args.results, "median_s": median}))


if __name__ == "__main__":
    main()
