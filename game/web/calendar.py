"""The daily calendar: a month of daily deals, each past day marked with a player's result."""

import re

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from game.selectors import daily, players, ratings
from game.selectors.calendar import Month, first_month, month_weeks
from game.web.problems import problem

ISO_MONTH = re.compile(r"(\d{4})-(\d{2})")


def month_calendar(request: HttpRequest) -> HttpResponse:
    """`?month=YYYY-MM` (default this month); `?player=<name>` marks that player's results,
    otherwise the visitor's own (none for an anonymous visitor)."""
    today = daily.daily_today()
    month = _parse_month(request.GET.get("month", Month.of(today).iso))
    if month is None:
        message = _("“%(month)s” is not a month. Months are written YYYY-MM, like 2026-12.")
        return problem(request, 400, _("Not a month"), message % {"month": request.GET["month"]})
    first, last = first_month(today), Month.of(today)
    if not first <= month <= last:
        message = _("The calendar runs from %(first)s to %(last)s.")
        bounds = {"first": first.iso, "last": last.iso}
        return problem(request, 404, _("No daily deals that month"), message % bounds)
    name = request.GET.get("player")
    profile = players.profile_named(name) if name is not None else _own_profile(request)
    if name is not None and profile is None:
        message = _("No player is called “%(name)s”.") % {"name": name}
        return problem(request, 404, _("No such player"), message)
    context = {
        "month": month,
        "weeks": month_weeks(profile and profile.user, month, today, _difficulties(request, month)),
        "profile": profile,
        "before": month.shifted(-1) if month > first else None,
        "after": month.shifted(1) if month < last else None,
    }
    return render(request, "daily/calendar.html", context)


def _parse_month(text: str) -> Month | None:
    match = ISO_MONTH.fullmatch(text)
    if match is None or not 1 <= int(match[2]) <= 12:
        return None
    return Month(int(match[1]), int(match[2]))


def _difficulties(request: HttpRequest, month: Month) -> dict:
    """The deals' difficulties the visitor may see: it is the visitor's own game that counts,
    whoever's calendar they look at."""
    return ratings.month_difficulties(viewer=request.user, first=month.first, last=month.last)


def _own_profile(request: HttpRequest):
    return getattr(request.user, "profile", None) if request.user.is_authenticated else None
