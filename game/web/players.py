"""A player's public page: their daily record and their recent games."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from game.selectors import pages
from game.selectors.watching import racing_game_ids
from game.web.problems import problem


def player(request: HttpRequest, name: str) -> HttpResponse:
    profile = pages.profile_named(name)
    if profile is None:
        message = _("No player is called “%(name)s”.") % {"name": name}
        return problem(request, 404, _("No such player"), message)
    games = pages.recent_games(profile.user)
    context = {
        "profile": profile,
        "record": pages.player_record(profile.user),
        "games": games,
        # A race game links to nothing while its race runs: watching it would be studying.
        "racing": racing_game_ids(game_ids=[game.pk for game in games]),
    }
    return render(request, "players/player.html", context)
