"""The heart as an ASCII picture: tests draw their deals, and debugging prints the board.

Each card is its rank label at its x offset (four columns per card width, so the half offsets
line up); `..` marks a removed card and a `*` after a label a free one.

>>> print(draw_heart(new_game(deal_from_picture('''
...    K   Q       J  10
...  9   8   7   6   5   4
...    3   2   A   K   Q
...      J  10   9   8
...        7   6   5
...          4   3
...           2
... ''', waste=2))))
   K   Q       J  10
 9   8   7   6   5   4
   3   2   A   K   Q
     J  10   9   8
       7   6   5
         4   3
           2*
"""

from __future__ import annotations

from collections import Counter

from .errors import ParseError
from .geometry import COPIES, POSITIONS, RANKS, ROW_OF, ROWS, X2_OF, rank_from_label
from .geometry import rank_label as label
from .state import State, new_game

__all__ = ["deal_from_picture", "draw_heart", "new_game"]


def deal_from_picture(picture: str, *, waste: int, stock: tuple[int, ...] = ()) -> tuple[int, ...]:
    """A full deal from a heart picture (rows of rank labels, spacing free), the waste card and
    the top of the stock; the remaining cards fill the rest of the stock in rank order.

    >>> deal = deal_from_picture("A A A A\\n2 2 2 2 3 3\\n3 3 4 4 4\\n4 5 5 5\\n5 6 6\\n6 6\\n7",
    ...                          waste=13, stock=(7, 7))
    >>> deal[:4], deal[25:30], deal[-1]
    ((1, 1, 1, 1), (7, 7, 7, 8, 8), 13)
    """
    rows = [line.split() for line in picture.strip().splitlines() if line.strip()]
    if [len(row) for row in rows] != [len(xs) for xs in ROWS]:
        raise ParseError("a heart picture has rows of 4, 6, 5, 4, 3, 2 and 1 cards")
    heart = [_rank(token) for row in rows for token in row]
    rest = Counter({rank: COPIES for rank in RANKS})
    rest.subtract(heart + [waste, *stock])
    if any(count < 0 for count in rest.values()):
        raise ParseError("the picture, waste and stock hold more than four of some rank")
    filler = [rank for rank in RANKS for _ in range(rest[rank])]
    return tuple(heart) + tuple(stock) + tuple(filler) + (waste,)


def _rank(token: str) -> int:
    try:
        return rank_from_label(token.rstrip("*"))
    except ValueError:
        raise ParseError(f"not a rank in the picture: {token!r}") from None


def draw_heart(state: State) -> str:
    """The heart as text: labels at their offsets, `..` once removed, `*` marking free cards."""
    lines = [[" "] * 26 for _ in ROWS]
    for p in POSITIONS:
        rank = state.rank_at(p)
        text = ".." if rank is None else label(rank).rjust(2) + ("*" if state.free >> p & 1 else "")
        column = 2 * X2_OF[p]
        lines[ROW_OF[p] - 1][column : column + len(text)] = list(text)
    return "\n".join("".join(line).rstrip() for line in lines)
