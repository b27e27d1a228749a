"""Live leaderboards, read: the boards a result is on, a board's version, and its snapshot, read
again only when its version moves on."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from game.models import BoardVersion
from game.selectors import boards
from game.selectors.ranking import RANK_ORDER
from tests.selectors.history import TODAY, deal_on, december_the_tenth, finish  # noqa: F401

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("december_the_tenth")]

CODE = "HH1-N-AAAAAAM"  # the code history.finish plays when given no deal
DEAL = f"deal:{CODE}"


def taken(board: str, version: int) -> None:
    """The board's version as the services leave it once it has taken `version` results."""
    BoardVersion.objects.update_or_create(board=board, defaults={"version": version})


def test_a_result_is_on_its_deals_board_and_a_ranked_daily_on_its_days_and_all_time_too(player):
    deal = deal_on(TODAY)
    assert boards.boards_of(finish(player)) == [DEAL]
    day = [f"deal:{deal.code}", f"daily:{TODAY.isoformat()}", boards.ALL_TIME]
    assert boards.boards_of(finish(player, deal)) == day
    assert boards.boards_of(finish(player, deal, ranked=False)) == [f"deal:{deal.code}"]


def test_a_players_boards_are_every_board_one_of_their_results_is_on(player, rival):
    assert boards.boards_of_player(player_id=player.pk) == []
    finish(player)
    assert boards.boards_of_player(player_id=player.pk) == [DEAL]
    deal = deal_on(TODAY)
    finish(player, deal)
    finish(rival, code="HH1-N-AAAAAAC")
    every = {DEAL, f"deal:{deal.code}", f"daily:{TODAY.isoformat()}", boards.ALL_TIME}
    assert set(boards.boards_of_player(player_id=player.pk)) == every


def test_a_deal_boards_snapshot_is_its_rows_best_first_in_the_rank_order(player, rival):
    finish(player, score=200)
    best = finish(rival, score=250)
    taken(DEAL, 2)
    snapshot = boards.board_snapshot(board=DEAL)
    assert (snapshot["version"], snapshot["order"]) == (2, list(RANK_ORDER))
    first = snapshot["rows"][0]
    assert [row["player"] for row in snapshot["rows"]] == ["Bea", "Ann"]
    assert first | {"id": best.pk, "score": 250, "player_url": "/players/Bea/"} == first


def test_the_all_time_snapshot_is_the_daily_records(player):
    finish(player, deal_on(TODAY))
    snapshot = boards.board_snapshot(board=boards.ALL_TIME)
    assert snapshot["order"] is None and snapshot["version"] == 0
    (row,) = snapshot["rows"]
    assert row | {"player": "Ann", "wins": 1, "played": 1, "win_percent": 100} == row


def test_a_snapshot_of_an_unchanged_board_reads_only_its_version(player, rival):
    deal = deal_on(TODAY)
    finish(player, deal)
    taken(boards.ALL_TIME, 1)
    first = boards.board_snapshot(board=boards.ALL_TIME)
    with CaptureQueriesContext(connection) as captured:
        assert boards.board_snapshot(board=boards.ALL_TIME) == first
    assert len(captured) == 1 and BoardVersion._meta.db_table in captured[0]["sql"]
    finish(rival, deal)
    taken(boards.ALL_TIME, 2)
    changed = boards.board_snapshot(board=boards.ALL_TIME)
    assert changed["version"] == 2 and len(changed["rows"]) == 2


def test_a_snapshot_as_recent_as_asked_is_reused_without_reading_the_version(player):
    finish(player)
    taken(DEAL, 1)
    first = boards.board_snapshot(board=DEAL)
    with CaptureQueriesContext(connection) as captured:
        assert boards.board_snapshot(board=DEAL, at_least=1) == first
    assert len(captured) == 0


def test_a_following_snapshot_shows_only_the_players_given(player, rival):
    finish(player)
    finish(rival)
    taken(DEAL, 2)
    snapshot = boards.following_snapshot(board=DEAL, players=[rival.pk])
    assert [row["player"] for row in snapshot["rows"]] == ["Bea"] and snapshot["version"] == 2
    assert len(boards.board_snapshot(board=DEAL)["rows"]) == 2
