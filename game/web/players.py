"""A player's public page: their daily record, charts of their dailies, their recent games,
whom they follow and how many follow them; and the Follow / Unfollow button on it."""

from dataclasses import dataclass

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from game.domain.errors import GameError
from game.models import RatingKind
from game.selectors import daily, follows, leaderboards, player_stats, players, ratings, standing
from game.selectors.ghosts import best_ghosts
from game.selectors.races import racing_game_ids
from game.services.follows import follow_create, follow_delete
from game.web import charts
from game.web.problems import problem


def player(request: HttpRequest, name: str) -> HttpResponse:
    profile = players.profile_named(name)
    if profile is None:
        return _no_such_player(request, name)
    games = players.recent_games(profile.user)
    record = leaderboards.player_record(profile.user)
    context = {
        "profile": profile,
        "record": record,
        "games": games,
        # A race game links to nothing while its race runs: watching it would be studying.
        "racing": racing_game_ids(game_ids=[game.pk for game in games]),
        "follows": follows.followed_profiles(user=profile.user),
        "followers": follows.follower_count(user=profile.user),
        "following": follows.is_following(follower=request.user, followed=profile.user),
        "voided": standing.voided_count(user=profile.user),
        "ghosts": best_ghosts(player=profile.user, viewer=request.user),
        **(_charts(profile.user) if record else {}),
        **_ratings(profile.user),
    }
    return render(request, "players/player.html", context)


@require_POST
def follow(request: HttpRequest, name: str) -> HttpResponse:
    return _follow_change(request, name, follow_create, _("You now follow %(name)s."))


@require_POST
def unfollow(request: HttpRequest, name: str) -> HttpResponse:
    return _follow_change(request, name, follow_delete, _("You no longer follow %(name)s."))


def _follow_change(request: HttpRequest, name: str, change, done: str) -> HttpResponse:
    """Follow or unfollow the player called `name`, then show their page again, saying `done`;
    anonymous visitors log in first and come back to the page, where the button is."""
    if not request.user.is_authenticated:
        return redirect_to_login(reverse("player", args=[name]))
    profile = players.profile_named(name)
    if profile is None:
        return _no_such_player(request, name)
    try:
        change(follower=request.user, followed=profile.user)
    except GameError as error:
        return problem(request, 400, _("Not possible"), error.message)
    messages.success(request, done % {"name": profile.display_name})
    return redirect("player", name=profile.display_name)


def _no_such_player(request: HttpRequest, name: str) -> HttpResponse:
    message = _("No player is called “%(name)s”.") % {"name": name}
    return problem(request, 404, _("No such player"), message)


def _charts(user) -> dict:
    """The figures a player with ranked dailies has beyond their record."""
    days = player_stats.recent_days(user, daily.daily_today())
    buckets = player_stats.time_histogram(user)
    return {
        "recent_days": days,
        "recent_chart": charts.bar_chart(days, [day.duration_ms for day in days]),
        "time_buckets": buckets,
        "times_chart": charts.bar_chart(buckets, [bucket.count for bucket in buckets]),
        "moves_over_par": player_stats.moves_over_par(user, daily.daily_today()),
    }


@dataclass(frozen=True)
class RatingHistory:
    kind: str
    label: str
    changes: list
    chart: charts.LineChart


def _ratings(user) -> dict:
    """Both ratings as they stand, and a chart of each that has a history."""
    histories = [
        RatingHistory(kind, label, changes, charts.line_chart(changes, [c.rating for c in changes]))
        for kind, label in RatingKind.choices
        if (changes := ratings.rating_history(user=user, kind=kind))
    ]
    return {"ratings": ratings.player_ratings(user=user), "rating_histories": histories}
