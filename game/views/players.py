"""A player's public page: their daily record and their recent games."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from game import selectors
from game.views.problems import problem


def player(request: HttpRequest, name: str) -> HttpResponse:
    profile = selectors.profile_named(name)
    if profile is None:
        message = _("No player is called “%(name)s”.") % {"name": name}
        return problem(request, 404, _("No such player"), message)
    context = {
        "profile": profile,
        "record": selectors.player_record(profile.user),
        "games": selectors.recent_games(profile.user),
    }
    return render(request, "players/player.html", context)
