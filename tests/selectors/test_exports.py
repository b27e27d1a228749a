"""Download my data, read in parts: the fields before the games, the games by their ids, and the
fields after them."""

import datetime

import pytest
from django.utils import timezone

from game.models import Action, Follow, Game
from game.selectors import exports
from tests.selectors.history import TODAY, deal_on, finish

pytestmark = pytest.mark.django_db

CODE = "HH1-N-AAAAAAC"


def open_game(player, code: str = CODE, minutes_ago: int = 0) -> Game:
    started = timezone.now() - datetime.timedelta(minutes=minutes_ago)
    return Game.objects.create(player=player, code=code, started_at=started)


def test_the_head_is_the_format_the_account_and_its_profile(player):
    player.email = "ann@example.org"
    head = exports.account_export_head(user=player)
    assert (head["format"], head["version"]) == (exports.EXPORT_FORMAT, exports.EXPORT_VERSION)
    assert head["account"] | {"username": "ann", "email": "ann@example.org"} == head["account"]
    assert head["account"]["last_login"] is None
    assert head["profile"] == {"display_name": "Ann", "theme": "system"}


def test_the_game_ids_are_the_accounts_own_games_oldest_first(player, rival):
    newest = open_game(player, minutes_ago=1)
    oldest = open_game(player, "HH1-N-AAAAAAD", minutes_ago=9)
    open_game(rival, minutes_ago=5)
    assert exports.account_export_game_ids(user=player) == [oldest.pk, newest.pk]


def test_the_games_read_together_keep_the_order_asked_and_only_the_accounts_own(player, rival):
    first, second = open_game(player), open_game(player, "HH1-N-AAAAAAD")
    theirs = open_game(rival)
    ids = [second.pk, theirs.pk, first.pk, second.pk + 1000]  # the last one deleted since
    assert exports.account_export_games(user=player, ids=ids) == [second, first]


def test_a_game_is_written_with_its_log_and_its_result(player):
    result = finish(player, deal_on(TODAY), moves=44)
    Action.objects.create(game=result.game, index=0, action="stock", at=timezone.now())
    (game,) = exports.account_export_games(user=player, ids=[result.game_id])
    written = exports.account_export_game(game=game)
    assert written | {"daily_date": TODAY.isoformat(), "ranked": True, "race_room": None} == (
        written
    )
    assert [action["action"] for action in written["actions"]] == ["stock"]
    assert written["result"] | {"won": True, "moves": 44, "clean": True} == written["result"]


def test_an_open_game_is_written_without_a_result(player):
    written = exports.account_export_game(game=open_game(player))
    assert written["result"] is None and written["finished_at"] is None
    assert written["actions"] == [] and written["status"] == "open"


def test_the_tail_is_whom_the_account_follows_and_how_many_follow_it(player, rival, make_player):
    now = timezone.now()
    Follow.objects.create(follower=player, followed=rival, created=now)
    Follow.objects.create(follower=rival, followed=player, created=now)
    Follow.objects.create(follower=make_player("cid"), followed=player, created=now)
    tail = exports.account_export_tail(user=player)
    assert [follow["player"] for follow in tail["following"]] == ["Bea"]
    assert tail["followers"] == 2
