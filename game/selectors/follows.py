"""Reads about following: whom a player follows, how many follow them, who a following
board shows."""

from game.models import Follow, Profile


def followed_profiles(*, user) -> list[Profile]:
    """The public profiles of the players `user` follows, by name."""
    followed = Follow.objects.filter(follower=user).values("followed_id")
    return list(Profile.objects.filter(user_id__in=followed).order_by("display_name"))


def follower_count(*, user) -> int:
    return Follow.objects.filter(followed=user).count()


def is_following(*, follower, followed) -> bool:
    if not follower.is_authenticated:
        return False
    return Follow.objects.filter(follower=follower, followed=followed).exists()


def following_board_players(*, user) -> frozenset[int]:
    """Whose results a following board shows: the players `user` follows, and `user`."""
    followed = Follow.objects.filter(follower=user).values_list("followed_id", flat=True)
    return frozenset([user.pk, *followed])
