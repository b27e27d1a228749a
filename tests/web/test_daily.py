"""The daily deal: one winnable code a day for everyone, unknowable before its day."""

import datetime
import hashlib
import hmac

import pytest
from django.conf import settings

from game import daily, engine, services
from game.models import DailyDeal

pytestmark = pytest.mark.django_db

DAY = datetime.date(2026, 3, 14)


@pytest.fixture
def today(monkeypatch):
    """Freeze the daily calendar on DAY."""
    monkeypatch.setattr(daily, "daily_today", lambda: DAY)
    return DAY


def test_two_players_get_the_same_daily_code(today, player, rival):
    mine = services.game_daily_open(player=player)
    theirs = services.game_daily_open(player=rival)
    assert mine.code == theirs.code and mine.code.startswith("HH1-D-")
    assert mine.pk != theirs.pk and mine.daily == theirs.daily == DailyDeal.objects.get(date=DAY)


def test_the_daily_code_changes_with_the_date():
    codes = {daily.daily_deal(DAY + datetime.timedelta(days=n)).code for n in range(5)}
    assert len(codes) == 5
    assert DailyDeal.objects.count() == 5


def test_the_daily_deal_is_certified_winnable():
    for n in range(10):
        code = daily.daily_code(DAY + datetime.timedelta(days=n))
        plan = engine.solve(code, key=settings.DEAL_KEY)
        assert plan and engine.replay(code, plan, key=settings.DEAL_KEY).won


def test_the_code_is_the_first_winnable_candidate_of_the_documented_derivation():
    key = settings.DEAL_KEY.encode()
    candidates = []
    for n in range(50):
        digest = hmac.digest(key, f"h2h-daily:{DAY.isoformat()}:{n}".encode(), hashlib.sha256)
        candidates.append(engine.format_code("D", int.from_bytes(digest[:8], "big") % 26**7))
    winnable = [code for code in candidates if engine.solve(code, key=settings.DEAL_KEY)]
    assert daily.daily_code(DAY) == winnable[0]


def test_the_code_depends_on_the_deal_key():
    assert daily.daily_code(DAY, key="one deployment") != daily.daily_code(DAY, key="another")


def test_the_stored_deal_wins_over_a_fresh_derivation():
    DailyDeal.objects.create(date=DAY, code="HH1-D-AAAAAAC")
    assert daily.daily_deal(DAY).code == "HH1-D-AAAAAAC"


def test_today_is_read_in_the_configured_time_zone(settings):
    # 25 hours apart: the two zones never share a date.
    settings.DAILY_TZ = "Pacific/Kiritimati"
    east = daily.daily_today()
    settings.DAILY_TZ = "Pacific/Pago_Pago"
    assert east - daily.daily_today() == datetime.timedelta(days=1)


def test_the_first_daily_game_is_ranked_and_later_ones_practice(today, player):
    first = services.game_daily_open(player=player)
    assert first.ranked and services.game_daily_open(player=player).pk == first.pk
    services.game_resign(player=player, game_id=first.pk)
    second = services.game_daily_open(player=player)
    assert second.pk != first.pk and not second.ranked
    info = services.game_snapshot(game=second)["game"]
    assert info["practice"] and not info["ranked"] and info["kind"] == "D"
    assert info["daily_date"] == DAY.isoformat()


def test_a_past_days_deal_is_practice(today, monkeypatch, player, rival):
    code = services.game_daily_open(player=player).code
    monkeypatch.setattr(daily, "daily_today", lambda: DAY + datetime.timedelta(days=1))
    game = services.game_open(player=rival, code=code)
    assert not game.ranked and game.daily.date == DAY


def test_a_ranked_daily_result_is_ranked_on_the_days_board(today, player, rival):
    games = [services.game_daily_open(player=p) for p in (player, rival)]
    services.game_resign(player=player, game_id=games[0].pk)
    practice = services.game_daily_open(player=player)
    reply = services.game_resign(player=player, game_id=practice.pk)
    assert reply.game["result"]["board"] == "deal" and reply.game["result"]["of"] == 2
    reply = services.game_resign(player=rival, game_id=games[1].pk)
    assert reply.game["result"] | {"board": "daily", "of": 2} == reply.game["result"]
    assert games[1].result.ranked
