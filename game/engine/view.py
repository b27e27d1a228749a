"""Questions about a state, and the public view: what players and spectators may see.

The view shows the heart, the stock's size, the waste's top and size, and nothing else about the
pile: the order of the stock, and the waste below its top, never leave the engine.

>>> from game.engine import new_game
>>> view = public_view(new_game("HH1-N-AAAAAAM"))
>>> view["heart"][24], view["stock"], view["waste"], view["hints"]
({'rank': 12, 'free': True}, 26, {'top': 4, 'size': 1}, [])
"""

from __future__ import annotations

from typing import Any

from .geometry import POSITIONS, ROWS, iter_bits
from .state import FREE, PILE, TURNED, State

Hint = int | str


def table_layout() -> dict[str, list[list[float]]]:
    """The heart's geometry as a board lays it out (docs/protocol.md, "The layout"): each row's
    x offsets in card widths, positions numbered 1-25 row by row.

    >>> [len(row) for row in table_layout()["rows"]]
    [4, 6, 5, 4, 3, 2, 1]
    """
    return {"rows": [list(xs) for xs in ROWS]}


def free_positions(state: State) -> list[int]:
    """The free heart positions, ascending.

    >>> from game.engine import new_game
    >>> free_positions(new_game("HH1-N-AAAAAAM"))
    [25]
    """
    return list(iter_bits(state.pos[FREE]))


def playable_targets(state: State) -> list[int | str]:
    """The taps that can change something: free cards, the waste if it has a card, the stock if
    stock or waste has one. Nothing once the game is won.

    >>> from game.engine import new_game
    >>> playable_targets(new_game("HH1-N-AAAAAAM"))
    [25, 'waste', 'stock']
    """
    if state.won:
        return []
    targets: list[int | str] = list(iter_bits(state.pos[FREE]))
    if state.pos[TURNED]:
        targets.append("waste")
    if state.pos[PILE]:
        targets.append("stock")
    return targets


def possible_pairs(state: State) -> list[tuple[int, int | str]]:
    """Every pair that could be removed now: two free cards, or a free card and the waste top.

    >>> from game.engine import new_game
    >>> possible_pairs(new_game("HH1-N-AAAAAAM"))
    []
    """
    heart, top = state.dealt, state.waste_top
    free = free_positions(state)
    pairs: list[tuple[int, int | str]] = []
    for i, p in enumerate(free):
        pairs.extend((p, q) for q in free[i + 1 :] if heart[q] == heart[p])
        if heart[p] == top:
            pairs.append((p, "waste"))
    return pairs


def hints(state: State) -> list[Hint]:
    """Placement help: free positions with a free partner or a partner on the waste top, then
    "waste" if its top pairs with a free card. Empty while the help is off.

    >>> from game.engine import new_game, set_placement_help
    >>> hints(set_placement_help(new_game("HH1-N-AAAAAAM"), False))
    []
    """
    if not state.placement_help:
        return []
    heart, top = state.dealt, state.waste_top
    free = list(iter_bits(state.pos[FREE]))
    ranks = [heart[p] for p in free]
    marked: list[Hint] = [
        p for p, r in zip(free, ranks, strict=True) if r == top or ranks.count(r) > 1
    ]
    if top is not None and top in ranks:
        marked.append("waste")
    return marked


def public_view(state: State) -> dict[str, Any]:
    """The JSON-ready view (docs/protocol.md, "The view"); it never reveals the stock order.

    >>> from game.engine import new_game
    >>> sorted(public_view(new_game("HH1-N-AAAAAAM")))  # doctest: +NORMALIZE_WHITESPACE
    ['can_undo', 'code', 'deadlocked', 'heart', 'hints', 'moves', 'score', 'selected', 'stock',
     'undos', 'waste', 'won']
    """
    removed, free, pile, turned, moves, dead = state.pos
    heart = state.dealt
    cells = [
        None if removed >> p & 1 else {"rank": heart[p], "free": free >> p & 1 == 1}
        for p in POSITIONS
    ]
    return {
        "code": state.code,
        "heart": cells,
        "stock": len(pile) - turned,
        "waste": {"top": pile[turned - 1] if turned else None, "size": turned},
        "selected": state.selected,
        "hints": hints(state),
        "score": state.score,
        "moves": moves,
        "undos": state.undos,
        "can_undo": state.can_undo,
        "won": state.won,
        "deadlocked": dead,
    }
