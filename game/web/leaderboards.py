"""Leaderboards: a day's daily deal, one deal code, and the all-time daily records."""

import datetime
import re

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from game import daily
from game.engine import ParseError, parse_code
from game.models import DailyDeal
from game.selectors import pages
from game.web.problems import problem

ISO_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")


def daily_today(request: HttpRequest) -> HttpResponse:
    deal = daily.daily_deal()
    return _daily(request, deal.date, deal)


def daily_on(request: HttpRequest, day: str) -> HttpResponse:
    date = _parse_day(day)
    deal = pages.daily_deal_on(date) if date else None
    if deal is None:
        message = _("There is no daily deal for “%(day)s”. Days are written YYYY-MM-DD.")
        return problem(request, 404, _("No such day"), message % {"day": day})
    return _daily(request, date, deal)


def _parse_day(day: str) -> datetime.date | None:
    if not ISO_DAY.fullmatch(day):
        return None
    try:
        return datetime.date.fromisoformat(day)
    except ValueError:
        return None


def _daily(request: HttpRequest, day: datetime.date, deal: DailyDeal) -> HttpResponse:
    context = {
        "day": day,
        "deal": deal,
        "is_today": day == daily.daily_today(),
        "results": pages.daily_board(deal),
        "neighbours": pages.neighbouring_days(deal),
    }
    return render(request, "leaderboards/daily.html", context)


def deal(request: HttpRequest, code: str) -> HttpResponse:
    try:
        canonical = parse_code(code)
    except ParseError as error:
        return problem(request, 400, _("That is not a deal code"), str(error))
    if canonical != code:
        return redirect("deal_leaderboard", code=canonical, permanent=True)
    context = {"code": code, "results": pages.deal_board(code)}
    return render(request, "leaderboards/deal.html", context)


def all_time(request: HttpRequest) -> HttpResponse:
    return render(request, "leaderboards/all_time.html", {"records": pages.all_time_records()})
