"""A result as the end-of-game window shows it: its place on its leaderboard, its deal's par once
known, and a ranked daily's day."""

import pytest
from django.utils import timezone

from game.models import DealPar, Game, Guest, Result
from game.selectors.results import result_board, result_rank, result_summary
from tests.selectors.history import TODAY, deal_on, december_the_tenth, finish  # noqa: F401

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("december_the_tenth")]

CODE = "HH1-N-AAAAAAM"  # the code history.finish plays when given no deal


def test_a_result_ranks_among_its_deals_standing_results(player, rival, make_player):
    best = finish(make_player("cid"), score=300)
    ours = finish(player, score=250)
    finish(rival, score=200)
    finish(rival, code="HH1-N-AAAAAAC", score=500)  # another deal's
    assert result_rank(result=ours) == {"rank": 2, "of": 3, "board": "deal"}
    assert result_rank(result=best)["rank"] == 1


def test_a_ranked_dailys_board_is_its_day_and_a_practice_games_its_deal(player, rival):
    deal = deal_on(TODAY)
    ranked, practice = finish(player, deal), finish(rival, deal, ranked=False)
    board, results = result_board(result=ranked)
    assert board == "daily" and list(results) == [ranked]
    board, results = result_board(result=practice)
    assert board == "deal" and set(results) == {ranked, practice}


def test_a_voided_result_has_no_rank_and_a_guests_is_on_no_board(player, rival, make_player):
    voided = finish(player)
    Result.objects.filter(pk=voided.pk).update(voided_at=timezone.now())
    finish(rival)
    assert result_rank(result=voided) == {"rank": None, "of": 1, "board": "deal"}
    guest = make_player("guest-1")
    Guest.objects.create(user=guest, session_key="k" * 32, created_at=timezone.now())
    assert result_rank(result=finish(guest)) == {"rank": None, "of": None, "board": None}


def test_an_open_game_has_no_summary(player):
    game = Game.objects.create(player=player, code=CODE, started_at=timezone.now())
    assert result_summary(game=game) is None


def test_a_summary_tells_the_result_its_rank_and_its_deals_par(player):
    result = finish(player, moves=44, undos=1)
    DealPar.objects.create(code=CODE, par=40)
    summary = result_summary(game=result.game)
    assert summary | {"won": True, "moves": 44, "undos": 1, "clean": False} == summary
    assert (summary["rank"], summary["par"], summary["daily"]) == (1, 40, None)


def test_a_ranked_dailys_summary_tells_its_day_unless_only_its_end_is_asked(player):
    result = finish(player, deal_on(TODAY))
    assert result_summary(game=result.game)["daily"]["streak"] == {"current": 1, "best": 1}
    assert result_summary(game=result.game, standing=False)["daily"] is None
