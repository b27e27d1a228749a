"""Reads about following: whom a player follows, how many follow them, who a following board
shows."""

import pytest
from django.contrib.auth.models import AnonymousUser

from game.selectors import follows, leaderboards
from game.services.follows import follow_create
from tests.site import resign_now

pytestmark = pytest.mark.django_db

CODE = "HH1-N-AAAAAAC"


def test_the_followed_profiles_are_whom_one_follows_by_name(player, rival, make_player):
    for name in ("zoe", "cid"):
        follow_create(follower=player, followed=make_player(name))
    follow_create(follower=rival, followed=player)
    assert [p.display_name for p in follows.followed_profiles(user=player)] == ["Cid", "Zoe"]
    assert follows.followed_profiles(user=make_player("dan")) == []


def test_the_follower_count_counts_those_who_follow_only(player, rival, make_player):
    follow_create(follower=rival, followed=player)
    follow_create(follower=make_player("cid"), followed=player)
    assert follows.follower_count(user=player) == 2 and follows.follower_count(user=rival) == 0


def test_a_visitor_follows_nobody(player):
    assert not follows.is_following(follower=AnonymousUser(), followed=player)


def test_a_following_board_shows_whom_one_follows_and_oneself(player, rival, make_player):
    stranger = make_player("cid")
    for someone in (player, rival, stranger):
        resign_now(someone, CODE)
    follow_create(follower=player, followed=rival)
    players = follows.following_board_players(user=player)
    assert players == {player.pk, rival.pk}
    shown = [r.player.profile.display_name for r in leaderboards.deal_board(CODE, players)]
    assert sorted(shown) == ["Ann", "Bea"]
    assert len(leaderboards.deal_board(CODE)) == 3
