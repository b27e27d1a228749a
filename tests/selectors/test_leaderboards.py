"""The leaderboards as the pages show them: a day's and a deal's boards, best first, and the
all-time board of daily records."""

import datetime

import pytest
from django.utils import timezone

from game.models import Guest
from game.selectors.abandoned import LATE_RESULT_MS
from game.selectors.leaderboards import all_time_records, daily_board, deal_board, player_record
from tests.selectors.history import TODAY, deal_on, december_the_tenth, finish  # noqa: F401

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("december_the_tenth")]

CODE = "HH1-N-AAAAAAM"  # the code history.finish plays when given no deal


def names(results) -> list[str]:
    return [result.player.profile.display_name for result in results]


def test_a_deals_board_is_its_results_best_first(player, rival, make_player):
    finish(player, score=200)
    finish(rival, score=250, seconds=90)
    finish(make_player("cid"), score=250, seconds=30)
    finish(make_player("dan"), code="HH1-N-AAAAAAC")  # another deal's
    assert names(deal_board(CODE)) == ["Cid", "Bea", "Ann"]


def test_a_deals_board_leaves_out_guests_and_games_of_a_day_or_more(player, rival, make_player):
    guest = make_player("guest-1")
    Guest.objects.create(user=guest, session_key="k" * 32, created_at=timezone.now())
    finish(guest)
    finish(rival, seconds=LATE_RESULT_MS / 1000)
    finish(player)
    assert names(deal_board(CODE)) == ["Ann"]


def test_a_days_board_is_its_ranked_attempts_and_leaves_out_practice(player, rival):
    deal = deal_on(TODAY)
    finish(player, deal, ranked=False, score=300)
    finish(rival, deal)
    finish(rival, deal_on(TODAY - datetime.timedelta(days=1)))
    assert names(daily_board(deal)) == ["Bea"]


def on_day(days_ago: int):
    return deal_on(TODAY - datetime.timedelta(days=days_ago))


def test_the_all_time_board_puts_most_wins_first_then_fewer_attempts(player, rival, make_player):
    today, yesterday = on_day(0), on_day(1)
    for deal in (today, yesterday):
        finish(player, deal)
    finish(rival, today)
    finish(rival, yesterday, won=False)
    finish(rival, on_day(2))
    finish(make_player("cid"), on_day(3))
    records = all_time_records()
    assert [(r.display_name, r.wins, r.played) for r in records] == [
        ("Ann", 2, 2),
        ("Bea", 2, 3),
        ("Cid", 1, 1),
    ]
    assert records[1].win_percent == 67
    assert (records[0].current_streak, records[0].best_streak) == (2, 2)


def test_a_players_record_counts_their_ranked_dailies_only(player, rival):
    today = on_day(0)
    finish(player, today)
    finish(player, on_day(1), won=False)
    finish(player)  # a normal deal's
    finish(rival, today, ranked=False)
    record = player_record(player)
    assert (record.wins, record.played, record.best_ms) == (1, 2, 60_000)
    assert player_record(rival) is None
