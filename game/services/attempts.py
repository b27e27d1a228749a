"""One ranked attempt a day per e-mail address, whichever account it comes through.

An account's ranked game of a day is its first game of the day's deal; deleting the account
and signing up again with the same address would give a second one, after the first had shown
the whole stock. So the Start of a ranked game marks the account's address for the day, and
an account whose address is marked gets that day's deal as practice only. "The same address",
not "the same person": another address is another account.

The address itself is not kept: only an HMAC-SHA-256, keyed with the site's secret key, of the
address in NFKC and lower case, and only until the day ends (`attempts_forget`, run by
`manage.py expire_dailies`; docs/deployment.md, "Privacy").
"""

import datetime

from game.models import DailyStartMark
from game.selectors.attempts import address_hash


def attempt_mark(*, player, day: datetime.date) -> None:
    """The player pressed Start on `day`'s ranked game: their address has had its attempt.
    Called in the Start's transaction, so the mark and the start are stored together."""
    if player.email:
        hashed = address_hash(player.email)
        DailyStartMark.objects.get_or_create(date=day, address_hash=hashed)


def attempts_forget(*, before: datetime.date) -> int:
    """Delete the marks of the days before `before` (ended days); how many went."""
    deleted, _ = DailyStartMark.objects.filter(date__lt=before).delete()
    return deleted
