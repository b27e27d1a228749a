"""Whether an e-mail address has had its ranked attempt of a day, read by the keyed hash it is
marked by (game.services.attempts writes the marks and says why)."""

import datetime
import hashlib
import hmac
import unicodedata

from django.conf import settings

from game.models import DailyStartMark


def address_hash(address: str) -> str:
    """The keyed hash an address is marked by: one value for every spelling of it that
    normalises alike ("Bea@Example.org", "ｂｅａ@example.org").

    >>> address_hash("Bea@Example.org") == address_hash("ｂｅａ@example.org")
    True
    """
    normalised = unicodedata.normalize("NFKC", address).lower()
    key = settings.SECRET_KEY.encode()
    return hmac.digest(key, normalised.encode(), hashlib.sha256).hex()


def attempt_made(*, player, day: datetime.date) -> bool:
    """Whether an account with the player's address has started `day`'s ranked game."""
    if not player.email:
        return False
    marks = DailyStartMark.objects.filter(date=day, address_hash=address_hash(player.email))
    return marks.exists()
