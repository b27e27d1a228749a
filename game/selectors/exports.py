"""Download my data: everything the site keeps about one account, as one JSON document."""

from django.db.models import Prefetch
from django.utils import timezone

from game.models import Action, Follow, Game, Profile

EXPORT_FORMAT = "heart-to-heart-account"
EXPORT_VERSION = 1


def account_export(*, user) -> dict:
    """The account, its profile, every game with its action log and result, and its follows."""
    return {
        "format": EXPORT_FORMAT,
        "version": EXPORT_VERSION,
        "exported_at": timezone.now().isoformat(),
        "account": _account(user),
        "profile": _profile(user),
        "games": [_game(game) for game in _games(user)],
        "following": _following(user),
        "followers": Follow.objects.filter(followed=user).count(),
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
    return {"display_name": profile.display_name} if profile else None


def _games(user):
    log = Prefetch("actions", queryset=Action.objects.order_by("index"))
    games = Game.objects.filter(player=user).select_related("daily", "result", "race_entry__room")
    return games.prefetch_related(log).order_by("started_at", "pk")


def _game(game: Game) -> dict:
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
        "actions": [
            {"index": a.index, "action": a.action, "at": a.at.isoformat()}
            for a in game.actions.all()
        ],
        "result": _result(game),
    }


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


def _name(user) -> str | None:
    profile = getattr(user, "profile", None)
    return profile.display_name if profile else None


def _iso(moment) -> str | None:
    return moment.isoformat() if moment else None
