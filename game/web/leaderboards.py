"""Leaderboards: a day's daily deal, one deal code, and the all-time daily records.

Each has a "Following" view, `?players=following`: only the players the visitor follows, and
the visitor, ranked among themselves. It needs a login (anonymous visitors are sent to it).
"""

import datetime
import re
from functools import wraps

from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from game.domain.deal_codes import code_parse
from game.domain.errors import GameError
from game.models import DailyDeal
from game.selectors import daily, leaderboards, ratings
from game.selectors.follows import following_board_players
from game.selectors.ghosts import raceable_ghost_ids
from game.services.daily import daily_deal
from game.web.problems import problem

ISO_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")
FOLLOWING = "following"


def whose_results(view):
    """Give the view `players`: None for everyone's results, or the following view's players."""

    @wraps(view)
    def scoped(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        asked = request.GET.get("players")
        if asked is None:
            return view(request, *args, players=None, **kwargs)
        if asked != FOLLOWING:
            message = _("Leave players out for everyone, or ask for players=following.")
            return problem(request, 400, _("No such view of a leaderboard"), message)
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        return view(request, *args, players=following_board_players(user=request.user), **kwargs)

    return scoped


@whose_results
def daily_today(request: HttpRequest, players) -> HttpResponse:
    deal = daily_deal()
    return _daily(request, deal.date, deal, players)


@whose_results
def daily_on(request: HttpRequest, day: str, players) -> HttpResponse:
    date = _parse_day(day)
    deal = daily.daily_deal_on(date) if date else None
    if deal is None:
        message = _("There is no daily deal for “%(day)s”. Days are written YYYY-MM-DD.")
        return problem(request, 404, _("No such day"), message % {"day": day})
    return _daily(request, date, deal, players)


def _parse_day(day: str) -> datetime.date | None:
    if not ISO_DAY.fullmatch(day):
        return None
    try:
        return datetime.date.fromisoformat(day)
    except ValueError:
        return None


def _daily(request: HttpRequest, day: datetime.date, deal: DailyDeal, players) -> HttpResponse:
    results = leaderboards.daily_board(deal, players)
    context = {
        "day": day,
        "deal": deal,
        "is_today": day == daily.daily_today(),
        "results": results,
        "ratings": _ratings_of(results),
        "neighbours": daily.neighbouring_days(deal),
        "following": players is not None,
    }
    return render(request, "leaderboards/daily.html", context)


@whose_results
def deal(request: HttpRequest, code: str, players) -> HttpResponse:
    try:
        canonical = code_parse(code=code)
    except GameError as error:
        return problem(request, 400, _("That is not a deal code"), error.message)
    if canonical != code:
        response = redirect("deal_leaderboard", code=canonical, permanent=True)
        if players is not None:
            response["Location"] += f"?players={FOLLOWING}"
        return response
    results = leaderboards.deal_board(code, players)
    context = {"code": code, "results": results, "ratings": _ratings_of(results)}
    context["following"] = players is not None
    context["ghost"] = _best_ghost(request.user, results)
    return render(request, "leaderboards/deal.html", context)


@whose_results
def all_time(request: HttpRequest, players) -> HttpResponse:
    records = leaderboards.all_time_records(players)
    context = {
        "records": records,
        "ratings": _ratings_of(records),
        "following": players is not None,
    }
    return render(request, "leaderboards/all_time.html", context)


def _best_ghost(viewer, results) -> int | None:
    """The board's best game, if the viewer may race it as a ghost (game.selectors.ghosts)."""
    if not results:
        return None
    best = results[0].game_id
    return best if best in raceable_ghost_ids(viewer=viewer, game_ids=[best]) else None


def _ratings_of(rows) -> dict:
    """The Daily ratings of a board's players, by id, read at once."""
    return ratings.daily_ratings_of([row.player_id for row in rows])


def ratings_board(request: HttpRequest) -> HttpResponse:
    """Players active within the last 30 days by Daily rating, provisional ones left out."""
    context = {"players": ratings.ratings_board(), "active_days": ratings.ACTIVE_DAYS}
    return render(request, "leaderboards/ratings.html", context)
