"""Reviews: a reviewer voids a result or a whole day, and may undo it; a flag never does."""

import datetime

import pytest
from django.contrib.admin.models import LogEntry
from django.utils import timezone

from game.models import Action, BoardVersion, Game
from game.selectors import leaderboards, players
from game.selectors.calendar import Mark, Month, month_marks
from game.selectors.finish import daily_distribution, daily_percentile
from game.selectors.results import result_rank
from game.selectors.streaks import Streak, streak_of
from game.services.results import result_flag
from game.services.reviews import day_unvoid, day_void, result_unvoid, result_void
from tests.selectors.history import TODAY, deal_on, december_the_tenth, finish  # noqa: F401

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("december_the_tenth")]


def days_ago(n: int) -> datetime.date:
    return TODAY - datetime.timedelta(days=n)


@pytest.fixture
def today():
    return deal_on(TODAY)


def on_boards(result) -> dict[str, bool]:
    """Where `result` is shown: its day's board, its deal's board, the all-time counts."""
    records = {r.player_id: r for r in leaderboards.all_time_records()}
    return {
        "daily": result in leaderboards.daily_board(result.daily),
        "deal": result in leaderboards.deal_board(result.code),
        "all_time": result.player_id in records,
    }


EVERYWHERE = {"daily": True, "deal": True, "all_time": True}
NOWHERE = {"daily": False, "deal": False, "all_time": False}


def test_a_voided_result_leaves_the_daily_deal_and_all_time_boards(
    player, rival, admin_user, today
):
    ann, bea = finish(player, today, seconds=90), finish(rival, today, seconds=120)
    assert result_void(result=ann, reason="a solver's line at machine pace", by=admin_user)
    assert on_boards(ann) == NOWHERE and on_boards(bea) == EVERYWHERE
    assert leaderboards.player_record(player) is None  # their record is their all-time row
    ann.refresh_from_db()
    assert ann.void_reason == "a solver's line at machine pace" and ann.voided_at is not None


def test_a_voided_result_is_in_no_comparison_and_has_no_rank(player, rival, admin_user, today):
    ann, bea = finish(player, today, seconds=90), finish(rival, today, seconds=120)
    assert daily_percentile(result=bea) == {"percentile": 0, "compared": 1}
    result_void(result=ann, reason="bot", by=admin_user)
    assert daily_percentile(result=bea) == {"percentile": None, "compared": 0}
    assert sum(bar["count"] for bar in daily_distribution(result=bea)["bars"]) == 1
    assert result_rank(result=bea) == {"rank": 1, "of": 1, "board": "daily"}
    assert result_rank(result=ann) == {"rank": None, "of": 1, "board": "daily"}


def test_a_voided_win_counts_for_no_streak(player, admin_user):
    wins = [finish(player, deal_on(days_ago(n))) for n in (2, 1, 0)]
    assert streak_of(player, TODAY) == Streak(current=3, best=3)
    result_void(result=wins[1], reason="bot", by=admin_user)
    assert streak_of(player, TODAY) == Streak(current=1, best=1)
    result_unvoid(result=wins[1], by=admin_user)
    assert streak_of(player, TODAY) == Streak(current=3, best=3)


def test_undoing_a_voiding_puts_the_result_back_on_its_boards(player, admin_user, today):
    ann = finish(player, today)
    result_void(result=ann, reason="bot", by=admin_user)
    assert result_unvoid(result=ann, by=admin_user)
    assert on_boards(ann) == EVERYWHERE and result_rank(result=ann)["rank"] == 1
    ann.refresh_from_db()
    assert ann.voided_at is None and ann.void_reason == ""
    assert not result_unvoid(result=ann, by=admin_user)  # nothing to undo


def test_a_voided_result_stays_in_its_players_history(player, admin_user, today):
    ann = finish(player, today)
    result_void(result=ann, reason="bot", by=admin_user)
    assert [game.result for game in players.recent_games(player)] == [ann]
    assert month_marks(player, Month.of(TODAY), TODAY)[TODAY] == Mark.WON_CLEAN


def test_a_voided_day_leaves_every_board_but_stays_in_the_players_history(
    player, rival, admin_user, today
):
    yesterday = deal_on(days_ago(1))
    ranked, practice = finish(player, yesterday), finish(rival, yesterday, ranked=False)
    standing = finish(player, today)
    assert day_void(deal=yesterday, reason="a dead deal", by=admin_user)
    assert leaderboards.daily_board(yesterday) == []
    assert leaderboards.deal_board(yesterday.code) == []  # the practice game left it too
    assert leaderboards.player_record(player).played == 1  # today's only, on the all-time board
    assert on_boards(standing) == EVERYWHERE
    assert practice in [game.result for game in players.recent_games(rival)]
    assert month_marks(player, Month.of(TODAY), TODAY)[days_ago(1)] == Mark.WON_CLEAN
    assert result_rank(result=ranked)["rank"] is None


def test_a_voided_day_neither_breaks_nor_extends_a_streak(player, admin_user):
    deals = {n: deal_on(days_ago(n)) for n in (3, 2, 1, 0)}
    finish(player, deals[3])
    finish(player, deals[2], won=False)  # the bad deal nobody could win
    finish(player, deals[1])
    assert streak_of(player, TODAY) == Streak(current=1, best=1)
    day_void(deal=deals[2], reason="a dead deal", by=admin_user)
    assert streak_of(player, TODAY) == Streak(current=2, best=2)
    finish(player, deals[0])
    assert streak_of(player, TODAY) == Streak(current=3, best=3)
    day_unvoid(deal=deals[2], by=admin_user)
    assert streak_of(player, TODAY) == Streak(current=2, best=2)


def test_a_voided_day_won_is_not_a_day_of_a_streak(player, admin_user):
    deals = {n: deal_on(days_ago(n)) for n in (2, 1, 0)}
    for deal in deals.values():
        finish(player, deal)
    day_void(deal=deals[1], reason="a leaked deal", by=admin_user)
    assert streak_of(player, TODAY) == Streak(current=2, best=2)


def test_todays_voided_day_leaves_the_streak_ending_yesterday_standing(player, admin_user, today):
    finish(player, deal_on(days_ago(1)))
    finish(player, today, won=False)
    assert streak_of(player, TODAY).current == 0
    day_void(deal=today, reason="a dead deal", by=admin_user)
    assert streak_of(player, TODAY) == Streak(current=1, best=1)


def test_undoing_a_days_voiding_keeps_a_result_voided_on_its_own(player, rival, admin_user, today):
    ann, bea = finish(player, today), finish(rival, today)
    result_void(result=ann, reason="bot", by=admin_user)
    day_void(deal=today, reason="a dead deal", by=admin_user)
    assert on_boards(bea) == NOWHERE
    assert day_unvoid(deal=today, by=admin_user)
    assert on_boards(bea) == EVERYWHERE and on_boards(ann) == NOWHERE


def test_voiding_bumps_the_boards_it_changes_and_records_who_and_why(player, admin_user, today):
    ann = finish(player, today)
    result_void(result=ann, reason="bot", by=admin_user)
    boards = [f"daily:{TODAY.isoformat()}", f"deal:{today.code}", "all-time"]
    versions = dict(BoardVersion.objects.values_list("board", "version"))
    assert versions == dict.fromkeys(boards, 1)
    assert not result_void(result=ann, reason="again", by=admin_user)  # the first reason stays
    ann.refresh_from_db()
    assert ann.void_reason == "bot" and BoardVersion.objects.get(board=boards[0]).version == 1
    entry = LogEntry.objects.get()
    assert (entry.user, entry.object_id) == (admin_user, str(ann.pk))
    assert entry.get_change_message() == "Voided on review: bot"


def test_a_days_voiding_bumps_its_boards_and_undoing_bumps_them_again(admin_user, today):
    day_void(deal=today, reason="a dead deal", by=admin_user)
    day_unvoid(deal=today, by=admin_user)
    boards = [f"daily:{TODAY.isoformat()}", f"deal:{today.code}", "all-time"]
    versions = dict(BoardVersion.objects.values_list("board", "version"))
    assert versions == dict.fromkeys(boards, 2)
    messages = [e.get_change_message() for e in LogEntry.objects.order_by("pk")]
    assert messages == ["Voided on review: a dead deal", "Voiding undone"]


def test_nothing_voids_automatically_a_flagged_result_stays_on_its_boards(player, today):
    ann = finish(player, today, seconds=3)
    game = Game.objects.get(pk=ann.game_id)
    taps = [game.started_at + datetime.timedelta(seconds=0.05 * i) for i in range(1, 31)]
    Action.objects.bulk_create(
        Action(game=game, index=i, action="stock", at=at) for i, at in enumerate(taps)
    )
    assert [flag.reason for flag in result_flag(result=ann)] == ["fast_taps"]
    ann.refresh_from_db()
    assert ann.flags.exists() and ann.voided_at is None
    assert on_boards(ann) == EVERYWHERE and streak_of(player, TODAY).current == 1
    assert timezone.now().date() == TODAY  # the boards above are today's
