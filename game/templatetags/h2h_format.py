"""Template filters for showing results."""

from django import template

register = template.Library()


@register.filter
def duration(milliseconds: int | None) -> str:
    """A game's time as m:ss, rounded down to the second.

    >>> duration(83_999)
    '1:23'
    >>> duration(3_600_000)
    '60:00'
    >>> duration(None)
    ''
    """
    if milliseconds is None:
        return ""
    minutes, seconds = divmod(milliseconds // 1000, 60)
    return f"{minutes}:{seconds:02d}"


@register.filter
def minutes(seconds: int) -> str:
    """Whole minutes, for the bounds of a span of time.

    >>> minutes(420)
    '7'
    """
    return str(seconds // 60)
