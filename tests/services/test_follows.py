"""Following: one-way, idempotent, never oneself."""

import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone

from game.domain.errors import GameError
from game.models import Follow
from game.selectors import follows
from game.services.follows import follow_create, follow_delete

pytestmark = pytest.mark.django_db


def test_following_twice_keeps_one_follow(player, rival):
    first = follow_create(follower=player, followed=rival)
    assert follow_create(follower=player, followed=rival) == first
    assert Follow.objects.count() == 1


def test_a_follow_is_one_way_and_needs_no_approval(player, rival):
    follow_create(follower=player, followed=rival)
    assert follows.is_following(follower=player, followed=rival)
    assert not follows.is_following(follower=rival, followed=player)
    assert [p.display_name for p in follows.followed_profiles(user=player)] == ["Bea"]
    assert follows.follower_count(user=rival) == 1 and follows.follower_count(user=player) == 0


def test_unfollowing_twice_is_harmless(player, rival):
    follow_create(follower=player, followed=rival)
    assert follow_delete(follower=player, followed=rival) is True
    assert follow_delete(follower=player, followed=rival) is False
    assert not Follow.objects.exists()


def test_nobody_follows_themselves(player):
    with pytest.raises(GameError) as refused:
        follow_create(follower=player, followed=player)
    assert refused.value.code == "self_follow"
    with pytest.raises(IntegrityError), transaction.atomic():  # nor past the service
        Follow.objects.create(follower=player, followed=player, created=timezone.now())
    assert not Follow.objects.exists()
