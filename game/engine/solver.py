"""A solver for tooling and tests (certifying daily deals); never offered to players in play.

Why winnability depends only on the heart and the multiset of the other 27 cards: with
unlimited redeals, drawing cycles through every stock and waste card, and removing the waste top
leaves the others in their cycle order. So whenever a free heart card has a partner anywhere in
the pile, a few draws (and perhaps a redeal) bring that partner to the waste top without
changing the heart. The order of the pile only decides how many draws a plan needs.

So the search runs over sets of removed heart cards alone. The pile's contents follow from
that set: with h copies of a rank in the heart and 4 - h in the pile, every way of removing c of
them so far leaves the same number of that rank in the pile while any remain in the heart
((4 - h) - (c mod 2)): h = 4 allows only heart pairs, h = 3 exactly one pile pair, h = 2 two pile
pairs or none, h = 1 one. Removed sets are order ideals of the covering order (623 of them), so a
depth-first search that remembers dead sets ends in well under that many steps, and "safe" moves
(ones some winning line could always make now) are taken without branching.

>>> from game.engine.replay import replay
>>> plan = solve("HH1-N-AAAAAAM")
>>> plan is None or replay("HH1-N-AAAAAAM", plan).won
True
"""

from __future__ import annotations

from .geometry import ABOVE, ALL_POSITIONS_MASK, COPIES, HEART_SIZE, free_mask, iter_bits
from .moves import Action
from .state import PILE, TURNED, new_game

# A removal: two heart positions, or one position and 0 meaning "with a card from the pile".
Removal = tuple[int, int]


class _Search:
    """The depth-first search over removed sets for one heart."""

    def __init__(self, heart: tuple[int, ...]) -> None:
        self.heart = heart
        self.of_rank = [0] * 14  # positions holding each rank
        for p in range(1, HEART_SIZE + 1):
            self.of_rank[heart[p]] |= 1 << p
        self.in_pile = [COPIES - m.bit_count() for m in self.of_rank]
        self.dead: set[int] = set()

    def pile_left(self, rank: int, removed: int) -> int:
        """Copies of a rank left in the pile while some of it remain in the heart."""
        return self.in_pile[rank] - ((self.of_rank[rank] & removed).bit_count() & 1)

    def run(self, removed: int) -> list[Removal] | None:
        """Removals that clear the heart from `removed`, in reverse order; None if none do."""
        if removed == ALL_POSITIONS_MASK:
            return []
        if removed in self.dead:
            return None
        for move in self.candidates(removed):
            gained = (1 << move[0]) | (1 << move[1] if move[1] else 0)
            found = self.run(removed | gained)
            if found is not None:
                found.append(move)
                return found
        self.dead.add(removed)
        return None

    def candidates(self, removed: int) -> list[Removal]:
        """The removals worth trying: a single safe one if any, else every legal one."""
        free = free_mask(removed)
        pairs: list[Removal] = []
        singles: list[Removal] = []
        for p in iter_bits(free):
            rank = self.heart[p]
            others = self.of_rank[rank] & ~removed & ~(1 << p)
            if not others & ~ABOVE[p]:
                # Every other copy lies above p, so p can only leave with the pile: safe now.
                return [(p, 0)] if self.pile_left(rank, removed) else []
            free_others = others & free
            if free_others and free_others == others:
                # Every copy left is free, so all of them can go now whichever pairs form.
                return [(p, free_others.bit_length() - 1)]
            pairs.extend((p, q) for q in iter_bits(free_others) if q > p)
            if self.pile_left(rank, removed):
                singles.append((p, 0))
        return pairs + singles


def solve(
    code_or_deal: str | tuple[int, ...] | list[int], *, key: str | bytes | None = None
) -> list[Action] | None:
    """Actions that win the deal when replayed, or None if it cannot be won.

    >>> plan = solve("HH1-N-AAAAAAM")
    >>> plan is None or plan[-1] in range(1, 26) or plan[-1] == "waste"
    True
    """
    state = new_game(code_or_deal, key=key)
    removals = _Search(state.dealt).run(0)
    if removals is None:
        return None
    removals.reverse()
    return _plan(removals, list(state.pos[PILE]), state.pos[TURNED], state.dealt)


def _plan(
    removals: list[Removal], pile: list[int], turned: int, heart: tuple[int, ...]
) -> list[Action]:
    """Turn removals into taps, drawing (and redealing) until each pile partner tops the waste."""
    actions: list[Action] = []
    for p, q in removals:
        if q:
            actions += [p, q]
            continue
        at = _find(pile, turned, heart[p])
        actions += _draws_to(at, turned, len(pile))
        actions += [p, "waste"]
        del pile[at]
        turned = at
    return actions


def _find(pile: list[int], turned: int, rank: int) -> int:
    """Where the next card of a rank lies in turning order: the waste top, the stock, or
    (after a redeal) lower in the waste."""
    if turned and pile[turned - 1] == rank:
        return turned - 1
    for at in range(turned, len(pile)):
        if pile[at] == rank:
            return at
    return pile.index(rank)


def _draws_to(at: int, turned: int, size: int) -> list[Action]:
    """Stock taps that bring pile[at] to the waste top."""
    if at == turned - 1:
        return []
    if at >= turned:
        return ["stock"] * (at + 1 - turned)
    return ["stock"] * (size - turned + 1 + at + 1)
