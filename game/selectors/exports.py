"""Download my data: everything the site keeps about one account, as one JSON document.

The document is read in parts, so that it can be sent as it is read: the fields before the
games, the games a few at a time with their logs, and the fields after them. Its memory is
then a few games' worth, whatever the size of the account.
"""

from django.utils import timezone

from game.models import Action, Follow, Game, Profile, Rating, RatingChange

EXPORT_FORMAT = "heart-to-heart-account"
EXPORT_VERSION = 1
GAMES_PER_READ = 50  # games read at once; each game's log is read, and written, on its own


def account_export_head(*, user) -> dict:
    """The document's fields before its games: its format, the account and its profile."""
    return {
        "format": EXPORT_FORMAT,
        "version": EXPORT_VERSION,
        "exported_at": timezone.now().isoformat(),
        "account": _account(user),
        "profile": _profile(user),
    }


def account_export_game_ids(*, user) -> list[int]:
    """The ids of every game of the account, oldest first: the document's order of them."""
    games = Game.objects.filter(player=user).order_by("started_at", "pk")
    return list(games.values_list("pk", flat=True))


def account_export_games(*, user, ids: list[int]) -> list[Game]:
    """The account's games of `ids` (up to GAMES_PER_READ, read together), in the order of
    `ids`; a game deleted since its id was read is left out. account_export_game writes each."""
    games = Game.objects.filter(player=user, pk__in=ids)
    found = {game.pk: game for game in games.select_related("daily", "result", "race_entry__room")}
    return [found[game_id] for game_id in ids if game_id in found]


def account_export_game(*, game: Game) -> dict:
    """One game of the document, with its action log (read now) and its result."""
    entry = getattr(game, "race_entry", None)
    return {
        "id": game.pk,
        "code": game.code,
        "daily_date": game.daily.date.isoformat() if game.daily else None,
        "ranked": game.ranked,
        "race_room": entry.room.room if entry else None,
        "status": game.status,
        "started_at": _iso(game.started_at),
        "finished_at": _iso(game.finished_at),
        "actions": _actions(game),
        "result": _result(game),
    }


def account_export_tail(*, user) -> dict:
    """The document's fields after its games: the account's follows, its ratings and their
    history."""
    return {
        "following": _following(user),
        "followers": Follow.objects.filter(followed=user).count(),
        "ratings": _ratings(user),
        "rating_history": _rating_history(user),
    }


def _account(user) -> dict:
    return {
        "username": user.get_username(),
        "email": user.email or None,
        "date_joined": user.date_joined.isoformat(),
        "last_login": user.last_login.isoformat() if user.last_login else None,
    }


def _profile(user) -> dict | None:
    profile = Profile.objects.filter(user=user).first()
    return {"display_name": profile.display_name, "theme": profile.theme} if profile else None


def _actions(game: Game) -> list[dict]:
    log = Action.objects.filter(game=game).order_by("index").values_list("index", "action", "at")
    return [{"index": index, "action": action, "at": at.isoformat()} for index, action, at in log]


def _result(game: Game) -> dict | None:
    result = getattr(game, "result", None)
    if result is None:
        return None
    keys = ("won", "score", "moves", "undos", "placement_help", "duration_ms")
    return {key: getattr(result, key) for key in keys} | {
        "clean": result.clean,
        "finished_at": result.finished_at.isoformat(),
    }


def _following(user) -> list[dict]:
    follows = Follow.objects.filter(follower=user).select_related("followed__profile")
    return [
        {"player": _name(follow.followed), "since": follow.created.isoformat()}
        for follow in follows.order_by("created", "pk")
    ]


def _ratings(user) -> dict:
    """The account's current ratings by kind, as stored: the deviation as of its last period."""
    keys = ("rating", "deviation", "volatility", "games")
    return {
        rating.kind: {key: getattr(rating, key) for key in keys}
        | {"rated_at": rating.rated_at.isoformat()}
        for rating in Rating.objects.filter(player=user).order_by("kind")
    }


def _rating_history(user) -> list[dict]:
    """Every rating period of the account, both kinds, oldest first: a day's or a race's."""
    changes = RatingChange.objects.filter(player=user).select_related("room")
    return [
        {
            "kind": change.kind,
            "at": change.at.isoformat(),
            "rating": change.rating,
            "deviation": change.deviation,
            "delta": change.delta,
            "date": change.date.isoformat() if change.date else None,
            "race_room": change.room.room if change.room else None,
        }
        for change in changes.order_by("at", "pk")
    ]


def _name(user) -> str | None:
    profile = getattr(user, "profile", None)
    return profile.display_name if profile else None


def _iso(moment) -> str | None:
    return moment.isoformat() if moment else None
