"""How results are ordered everywhere: score desc, then time asc, then moves asc."""

from functools import reduce
from operator import or_

from django.db.models import Q

RANK_ORDER = ("-score", "duration_ms", "moves", "finished_at")


def ranked_ahead_of(result) -> Q:
    """Results that RANK_ORDER puts before `result`: equal on each earlier key, better on one."""
    return _placed(result, better=True)


def ranked_behind(result) -> Q:
    """Results that RANK_ORDER puts after `result`: equal on each earlier key, worse on one."""
    return _placed(result, better=False)


def _placed(result, *, better: bool) -> Q:
    found, equal = [], Q()
    for key in RANK_ORDER:
        field = key.removeprefix("-")
        lookup = "gt" if key.startswith("-") == better else "lt"
        value = getattr(result, field)
        found.append(equal & Q(**{f"{field}__{lookup}": value}))
        equal &= Q(**{field: value})
    return reduce(or_, found)
