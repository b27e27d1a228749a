"""Following: one player follows another, one-way and with no approval (follows, not friends).

Both are idempotent, so a button pressed twice, or in two tabs, leaves one row or none.
"""

from django.db import transaction
from django.utils import timezone

from game.domain.errors import GameError
from game.models import Follow


def follow_create(*, follower, followed) -> Follow:
    """`follower` follows `followed` from now on (or already did); GameError self_follow."""
    if follower.pk == followed.pk:
        raise GameError("self_follow")
    with transaction.atomic():
        follow, _ = Follow.objects.get_or_create(
            follower=follower, followed=followed, defaults={"created": timezone.now()}
        )
        return follow


def follow_delete(*, follower, followed) -> bool:
    """`follower` no longer follows `followed`; False if they did not."""
    with transaction.atomic():
        deleted, _ = Follow.objects.filter(follower=follower, followed=followed).delete()
        return bool(deleted)
