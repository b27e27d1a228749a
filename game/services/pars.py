"""A deal's par, stored once it is known: the search itself runs in the runtime
(game.runtime.par_searcher), which calls this with its answer."""

from game.models import DealPar


def par_store(*, code: str, par: int | None) -> int | None:
    """Store `par` as the code's unless one is stored already; the stored par either way (two
    searches of one code that end together find the same)."""
    stored, _ = DealPar.objects.get_or_create(code=code, defaults={"par": par})
    return stored.par
