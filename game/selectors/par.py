"""Par as stored: a read that never computes (game.runtime.par_searcher searches it, and
game.services.pars stores it)."""

from game.models import DealPar


def par_of(code: str) -> int | None:
    """The stored par of a deal code: the fewest moves that win it; None while it is not
    computed yet, and for a deal that cannot be won. Show it only once the viewer's own game
    of that deal has ended."""
    return DealPar.objects.filter(code=code).values_list("par", flat=True).first()


def par_searched(code: str) -> bool:
    """Whether the code's par was searched already: stored, if only as None for a deal that
    cannot be won."""
    return DealPar.objects.filter(code=code).exists()


def pars_of(codes: set[str]) -> dict[str, int]:
    """The stored pars of many codes in one read; codes without a known par are left out."""
    known = DealPar.objects.filter(code__in=codes, par__isnull=False)
    return dict(known.values_list("code", "par"))
