"""A player's public page: their daily record, charts of their dailies, and recent games."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from game import daily
from game.selectors import pages, player_stats
from game.selectors.watching import racing_game_ids
from game.web import charts
from game.web.problems import problem


def player(request: HttpRequest, name: str) -> HttpResponse:
    profile = pages.profile_named(name)
    if profile is None:
        message = _("No player is called “%(name)s”.") % {"name": name}
        return problem(request, 404, _("No such player"), message)
    games = pages.recent_games(profile.user)
    record = pages.player_record(profile.user)
    context = {
        "profile": profile,
        "record": record,
        "games": games,
        # A race game links to nothing while its race runs: watching it would be studying.
        "racing": racing_game_ids(game_ids=[game.pk for game in games]),
        **(_charts(profile.user) if record else {}),
    }
    return render(request, "players/player.html", context)


def _charts(user) -> dict:
    """The figures a player with ranked dailies has beyond their record."""
    days = player_stats.recent_days(user, daily.daily_today())
    buckets = player_stats.time_histogram(user)
    return {
        "recent_days": days,
        "recent_chart": charts.bar_chart(days, [day.duration_ms for day in days]),
        "time_buckets": buckets,
        "times_chart": charts.bar_chart(buckets, [bucket.count for bucket in buckets]),
        "moves_over_par": player_stats.moves_over_par(user),
    }
