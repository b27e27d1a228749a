"""Cards and the heart's geometry, computed once as data.

The heart's rows hold 4, 6, 5, 4, 3, 2, 1 cards at half-card x offsets (docs/rules.md, "Free
cards"). A card at x is covered by the cards of the next row at x - 0.5 and x + 0.5 that exist.
Positions are numbered 1-25 row by row; sets of positions are bitmasks with bit p for position p
(bit 0 unused), so a whole board question is a couple of integer operations.

>>> [position_of(1, 0.5), position_of(7, 2.5)]
[1, 25]
>>> positions_in(COVERED_BY[1]), positions_in(COVERED_BY[5]), positions_in(COVERED_BY[25])
([5, 6], [11], [])
>>> positions_in(free_mask(0))
[25]
"""

from __future__ import annotations

from collections.abc import Iterator

RANKS = tuple(range(1, 14))  # 1 = Ace ... 13 = King
COPIES = 4  # every card is a heart: four copies of each rank make the 52-card pack
PACK_SIZE = len(RANKS) * COPIES
HEART_SIZE = 25
RANK_LABELS = ("", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")

# x offsets in card widths, row by row (docs/rules.md, "Free cards": the geometry it implies).
ROWS: tuple[tuple[float, ...], ...] = (
    (0.5, 1.5, 3.5, 4.5),
    (0, 1, 2, 3, 4, 5),
    (0.5, 1.5, 2.5, 3.5, 4.5),
    (1, 2, 3, 4),
    (1.5, 2.5, 3.5),
    (2, 3),
    (2.5,),
)
TIP = HEART_SIZE
POSITIONS = tuple(range(1, HEART_SIZE + 1))
ALL_POSITIONS_MASK = sum(1 << p for p in POSITIONS)


def _layout() -> dict[tuple[int, int], int]:
    """Map (row, doubled x) to position; doubling keeps the half offsets exact integers."""
    layout: dict[tuple[int, int], int] = {}
    for row, xs in enumerate(ROWS, start=1):
        for x in xs:
            layout[(row, round(2 * x))] = len(layout) + 1
    return layout


_LAYOUT = _layout()
ROW_OF = (0,) + tuple(row for (row, _x2) in _LAYOUT)
X2_OF = (0,) + tuple(x2 for (_row, x2) in _LAYOUT)


def position_of(row: int, x: float) -> int:
    """The position at a row (1-7) and x offset; KeyError if no card lies there.

    >>> position_of(2, 5)
    10
    """
    return _LAYOUT[(row, round(2 * x))]


def _covered_by(p: int) -> int:
    below = ((ROW_OF[p] + 1, X2_OF[p] - 1), (ROW_OF[p] + 1, X2_OF[p] + 1))
    return sum(1 << _LAYOUT[spot] for spot in below if spot in _LAYOUT)


# COVERED_BY[p]: the positions whose removal frees p. COVERS[p]: the positions p covers.
COVERED_BY = (0,) + tuple(_covered_by(p) for p in POSITIONS)
COVERS = (0,) + tuple(sum(1 << q for q in POSITIONS if COVERED_BY[q] >> p & 1) for p in POSITIONS)


def _closure(direct: tuple[int, ...], order: tuple[int, ...]) -> tuple[int, ...]:
    """Transitive closure of a relation given as masks, `order` putting each p after its relata."""
    result = [0] * (HEART_SIZE + 1)
    for p in order:
        result[p] = direct[p]
        for q in positions_in(direct[p]):
            result[p] |= result[q]
    return tuple(result)


def positions_in(mask: int) -> list[int]:
    """The positions whose bits are set in a mask, ascending.

    >>> positions_in(0b1010)
    [1, 3]
    """
    return [p for p in POSITIONS if mask >> p & 1]


def iter_bits(mask: int) -> Iterator[int]:
    """The set bit indexes of a mask, lowest first (cheaper than positions_in for sparse masks).

    >>> list(iter_bits(0b100100))
    [2, 5]
    """
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


# BELOW[p]: every card that must go before p is free. ABOVE[p]: every card p keeps covered.
# Two cards related either way can never be free together, so they can never pair.
BELOW = _closure(COVERED_BY, tuple(reversed(POSITIONS)))
ABOVE = _closure(COVERS, POSITIONS)

_FREE_CACHE: dict[int, int] = {}


def _compute_free(removed: int) -> int:
    free = 0
    for p in POSITIONS:
        if not removed >> p & 1 and COVERED_BY[p] & removed == COVERED_BY[p]:
            free |= 1 << p
    return free


def free_mask(removed: int) -> int:
    """The free positions, given the removed ones: cached, as few removed sets are reachable.

    >>> positions_in(free_mask(1 << 25))
    [23, 24]
    """
    free = _FREE_CACHE.get(removed)
    if free is None:
        free = _FREE_CACHE[removed] = _compute_free(removed)
    return free


def rank_label(rank: int) -> str:
    """A rank's short name.

    >>> rank_label(1), rank_label(10), rank_label(13)
    ('A', '10', 'K')
    """
    return RANK_LABELS[rank]


def rank_from_label(label: str) -> int:
    """The rank a short name (or number) stands for; ValueError otherwise.

    >>> rank_from_label("q"), rank_from_label("7")
    (12, 7)
    """
    text = label.strip().upper()
    if text in RANK_LABELS[1:]:
        return RANK_LABELS.index(text)
    if text == "1":
        return 1
    raise ValueError(f"not a rank: {label!r}")
