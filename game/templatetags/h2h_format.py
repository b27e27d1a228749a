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


@register.filter
def rating_of(ratings: dict, player_id: int):
    """The player's rating in a board's `ratings` (by player id), or None if unrated.

    >>> rating_of({7: 1623}, 7), rating_of({7: 1623}, 8)
    (1623, None)
    """
    return ratings.get(player_id)


@register.filter
def rating_change(change: int | None) -> str:
    """A rating change as shown: with its sign, a fall with the minus sign; "" if none yet
    (or in an empty row's template, where the template engine gives "").

    >>> rating_change(12), rating_change(-8), rating_change(0), rating_change(None)
    ('+12', '−8', '0', '')
    """
    if not isinstance(change, int):
        return ""
    if change < 0:
        return f"\u2212{-change}"  # the minus sign, not a hyphen
    return f"+{change}" if change > 0 else "0"
