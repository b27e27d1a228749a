"""One ranked attempt a day per e-mail address: a Start marks the account's address (as a keyed
hash, until the day ends), and an account with a marked address gets the day's deal as practice."""

import io

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from game import services
from game.models import DailyStartMark
from game.services.accounts import account_delete

pytestmark = pytest.mark.django_db


def account(name: str, email: str):
    return get_user_model().objects.create_user(username=name, email=email, password="x")


def started_daily(player):
    game = services.game_daily_open(player=player)
    services.game_start(game=services.LockedGame(game.pk), player=player, seq=1)
    return game


def test_a_new_account_of_an_address_that_started_today_gets_practice_only():
    first = account("ann", "ann@example.org")
    started_daily(first)
    account_delete(user=first)
    again = services.game_daily_open(player=account("ann2", "ANN@example.org"))
    assert not again.ranked and again.started_at is not None  # practice: its clock runs


def test_an_address_written_another_way_that_normalises_alike_is_the_same_address():
    started_daily(account("ann", "ann@example.org"))
    other = account("ann2", "ａｎｎ@Example.org")  # full-width letters: NFKC makes them ASCII
    assert not services.game_daily_open(player=other).ranked


def test_another_address_is_another_account_with_its_own_ranked_game():
    started_daily(account("ann", "ann@example.org"))
    assert services.game_daily_open(player=account("bea", "bea@example.org")).ranked


def test_opening_the_ranked_game_without_start_marks_nothing():
    first = account("ann", "ann@example.org")
    services.game_daily_open(player=first)  # no card was shown
    account_delete(user=first)
    assert services.game_daily_open(player=account("ann2", "ann@example.org")).ranked


def test_a_mark_keeps_a_keyed_hash_and_never_the_address():
    started_daily(account("ann", "ann@example.org"))
    (mark,) = DailyStartMark.objects.values_list("address_hash", flat=True)
    assert len(mark) == 64 and "ann" not in mark
    assert DailyStartMark.objects.filter(address_hash__icontains="example").count() == 0


def test_the_marks_are_deleted_once_their_day_has_ended(before_midnight):
    started_daily(account("ann", "ann@example.org"))
    call_command("expire_dailies", stdout=io.StringIO())
    assert DailyStartMark.objects.count() == 1  # the day is not over yet
    before_midnight.move_to(before_midnight.midnight)
    out = io.StringIO()
    call_command("expire_dailies", stdout=out)
    assert "1 e-mail marks of past days deleted" in out.getvalue()
    assert not DailyStartMark.objects.exists()


def test_tomorrow_the_address_has_a_ranked_game_again(before_midnight):
    started_daily(account("ann", "ann@example.org"))
    before_midnight.move_to(before_midnight.midnight)
    assert services.game_daily_open(player=account("ann2", "ann@example.org")).ranked
