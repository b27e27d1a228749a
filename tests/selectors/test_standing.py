"""Which results stand: neither voided themselves nor of a voided day."""

import datetime

import pytest
from django.utils import timezone

from game.models import DailyDeal, Result
from game.selectors.standing import day_standing, standing_results, voided_count, voided_days
from tests.selectors.history import TODAY, deal_on, finish

pytestmark = pytest.mark.django_db


def void(row) -> None:
    type(row).objects.filter(pk=row.pk).update(voided_at=timezone.now())


def test_a_voided_result_leaves_the_days_standing(player, rival):
    deal = deal_on(TODAY)
    voided, kept = finish(player, deal), finish(rival, deal)
    void(voided)
    assert list(day_standing(daily_id=deal.pk)) == [kept]
    assert voided not in standing_results()


def test_a_days_standing_leaves_out_its_practice_games(player, rival):
    deal = deal_on(TODAY)
    ranked = finish(player, deal)
    practice = finish(rival, deal, ranked=False)
    assert list(day_standing(daily_id=deal.pk)) == [ranked]
    assert practice in standing_results()


def test_a_voided_days_results_stand_nowhere_and_other_results_still_do(player, rival):
    deal = deal_on(TODAY)
    finish(player, deal)
    finish(rival, deal, ranked=False)
    other = finish(player)  # a normal deal's
    void(deal)
    assert list(standing_results()) == [other]
    assert not day_standing(daily_id=deal.pk).exists()


def test_the_voided_days_are_those_up_to_a_date_oldest_first():
    days = [deal_on(TODAY + datetime.timedelta(days=n)) for n in (0, -3, 2, -1)]
    for deal in days[:3]:
        void(deal)
    assert voided_days(until=TODAY) == [TODAY - datetime.timedelta(days=3), TODAY]
    assert DailyDeal.objects.count() == 4


def test_a_players_voided_count_counts_their_own_voided_results_not_a_voided_days(player, rival):
    deal = deal_on(TODAY)
    finish(player, deal)
    void(deal)
    void(finish(player))
    void(finish(rival))
    finish(player)
    assert voided_count(user=player) == 1
    assert Result.objects.filter(player=player).count() == 3
