"""Whether an e-mail address has had its ranked attempt of a day, by the marks of its hash."""

import datetime

import pytest

from game.models import DailyStartMark
from game.selectors.attempts import address_hash, attempt_made

pytestmark = pytest.mark.django_db

DAY = datetime.date(2026, 3, 14)


def test_an_address_marked_on_a_day_has_made_that_days_attempt_only(player):
    player.email = "ann@example.org"
    DailyStartMark.objects.create(date=DAY, address_hash=address_hash("Ann@Example.org"))
    assert attempt_made(player=player, day=DAY)
    assert not attempt_made(player=player, day=DAY + datetime.timedelta(days=1))


def test_an_address_marked_by_another_spelling_that_normalises_alike_made_the_attempt(player):
    player.email = "ａｎｎ@example.org"  # full-width letters: NFKC makes them ASCII
    DailyStartMark.objects.create(date=DAY, address_hash=address_hash("ann@example.org"))
    assert attempt_made(player=player, day=DAY)


def test_another_address_or_none_has_made_no_attempt(player):
    DailyStartMark.objects.create(date=DAY, address_hash=address_hash("ann@example.org"))
    player.email = "bea@example.org"
    assert not attempt_made(player=player, day=DAY)
    player.email = ""
    assert not attempt_made(player=player, day=DAY)
