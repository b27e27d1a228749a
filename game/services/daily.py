"""The daily deal: one certified-winnable code per day, derived from the date and the deal key.

Candidate n of a day is HMAC-SHA-256(key = the deal key, message = "h2h-daily:<YYYY-MM-DD>:<n>"
in ASCII); its first 8 bytes, big-endian, modulo 26**7 are the seed of the code HH1-D-<seed>
(letters big-endian, A = 0). The first candidate, from n = 0, that the solver wins is the day's
code (docs/protocol.md, "The daily deal"). Without the key nobody can know a day's code early.
Certifying the day's code also stores its par (DealPar: the runtime's par search hears
`deal_certified`), shown to a player only after their game of it ends, and the deal's
difficulty is seeded from its shortest winning line (game.services.ratings). The calendar and
the stored deals are read by game.selectors.daily.
"""

import datetime
import hashlib
import hmac
from collections.abc import Iterator
from itertools import count

from django.conf import settings

from game import engine
from game.models import DailyDeal
from game.selectors import daily
from game.services.ratings import deal_rating_seed
from game.services.signals import deal_certified

SEED_SPACE = 26**7  # seven letters A-Z


def daily_candidates(day: datetime.date, *, key: str) -> Iterator[str]:
    """The day's candidate codes, in the order they are tried.

    >>> next(daily_candidates(datetime.date(2025, 1, 1), key="k"))
    'HH1-D-BJTZXHL'
    """
    for n in count():
        message = f"h2h-daily:{day.isoformat()}:{n}".encode("ascii")
        digest = hmac.digest(key.encode("utf-8"), message, hashlib.sha256)
        yield engine.format_code("D", int.from_bytes(digest[:8], "big") % SEED_SPACE)


def daily_code(day: datetime.date, *, key: str | None = None) -> str:
    """The day's code: its first candidate that the solver certifies winnable."""
    key = settings.DEAL_KEY if key is None else key
    return next(code for code in daily_candidates(day, key=key) if engine.solve(code, key=key))


def daily_deal(day: datetime.date | None = None) -> DailyDeal:
    """The stored DailyDeal of `day` (default today), derived and stored on first use."""
    day = daily.daily_today() if day is None else day
    deal = DailyDeal.objects.filter(date=day).first()
    if deal is not None:
        return deal
    # Solve outside any transaction; two first requests racing derive the same code.
    code = daily_code(day)
    deal_certified.send(sender=None, code=code)  # its par is known from the start
    deal, dealt_now = DailyDeal.objects.get_or_create(date=day, defaults={"code": code})
    if dealt_now:  # shown to its players from their game's end; else seeded when rated
        deal_rating_seed(deal=deal)
    return deal
