"""A player's page: the player by their display name, and their latest games."""

from game.models import Game, Profile
from game.selectors.abandoned import with_abandoned

RECENT_GAMES = 30


def profile_named(name: str) -> Profile | None:
    return Profile.objects.select_related("user").filter(display_name=name).first()


def recent_games(user) -> list[Game]:
    """The player's latest games, newest first, each with its result if it has one and
    whether it is abandoned."""
    games = with_abandoned(Game.objects.filter(player=user).select_related("result", "daily"))
    return list(games.order_by("-started_at", "-pk")[:RECENT_GAMES])
