"""How a simulated person picks the next tap from the public view alone (no hidden cards).

Pairs first, then the waste, then the stock; now and then an undo or a mismatched card, as
people do. It knows only what the board shows, so it is a fair load, not a solver.
"""

import random

UNDO_CHANCE = 0.03
MISMATCH_CHANCE = 0.03


def free_cards(view: dict) -> list[tuple[int, int]]:
    return [
        (pos, card["rank"]) for pos, card in enumerate(view["heart"], 1) if card and card["free"]
    ]


def partner(view: dict, rank: int, besides) -> int | str | None:
    """A free card of `rank` other than `besides`, else the waste when its top matches."""
    for pos, other in free_cards(view):
        if other == rank and pos != besides:
            return pos
    if besides != "waste" and view["waste"]["top"] == rank:
        return "waste"
    return None


def rank_of(view: dict, target) -> int | None:
    if target == "waste":
        return view["waste"]["top"]
    card = view["heart"][target - 1]
    return card["rank"] if card else None


def next_action(view: dict, rng: random.Random) -> tuple[str, object]:
    """("tap", target) or ("undo", None) for a game that is neither won nor deadlocked."""
    if view["can_undo"] and rng.random() < UNDO_CHANCE:
        return "undo", None
    selected = view["selected"]
    if selected is not None:
        match = partner(view, rank_of(view, selected), selected)
        return "tap", match if match is not None else selected
    free = free_cards(view)
    if free and rng.random() < MISMATCH_CHANCE:
        return "tap", rng.choice(free)[0]
    for pos, rank in free:
        if partner(view, rank, pos) is not None:
            return "tap", pos
    return "tap", "stock"
