"""The one order of results: score desc, then time asc, then moves asc, then who finished first."""

import datetime

import pytest

from game.models import Result
from game.selectors.ranking import ranked_ahead_of, ranked_behind
from tests.selectors.history import finish

pytestmark = pytest.mark.django_db


def ids(results) -> set[int]:
    return {result.pk for result in results}


def test_results_ahead_are_better_on_the_first_key_they_differ_on(player):
    result = finish(player, score=200, seconds=60, moves=40)
    ahead = {
        finish(player, score=201, seconds=600, moves=90),
        finish(player, score=200, seconds=59, moves=90),
        finish(player, score=200, seconds=60, moves=39),
    }
    behind = {
        finish(player, score=199, seconds=1, moves=1),
        finish(player, score=200, seconds=61, moves=1),
        finish(player, score=200, seconds=60, moves=41),
    }
    assert ids(Result.objects.filter(ranked_ahead_of(result))) == ids(ahead)
    assert ids(Result.objects.filter(ranked_behind(result))) == ids(behind)


def test_of_two_equal_results_the_one_finished_first_is_ahead(player, rival):
    first, second = finish(player), finish(rival)
    earlier = second.finished_at - datetime.timedelta(seconds=1)
    Result.objects.filter(pk=first.pk).update(finished_at=earlier)
    first.refresh_from_db()
    assert list(Result.objects.filter(ranked_ahead_of(second))) == [first]
    assert list(Result.objects.filter(ranked_behind(first))) == [second]
    assert not Result.objects.filter(ranked_ahead_of(first)).exists()
