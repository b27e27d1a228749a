"""Par: the fewest moves that win a deal, as the move counter counts them, found by A*.

Unlike winnability (solver.py), par depends on the pile's order, since every draw and redeal is
a move. A search state is the removed heart cards, the pile cards still there and the waste
top, packed into one int: the heart's removed mask (bits 1-25), the pile's remaining mask (27
bits from bit 26, pile index i being the i-th card in turning order, the dealt waste card
first) and, from bit 53, one past the index of the waste top (0 for an empty waste). The pile
cards between the waste top and the next stock card are all gone, so that cursor says both
which card tops the waste and which one a draw turns next.

>>> min_moves("HH1-N-AAAAAAM") is None or min_moves("HH1-N-AAAAAAM") > 0
True
"""

from __future__ import annotations

import heapq
from collections.abc import Iterator
from functools import cache

from .geometry import (
    ABOVE,
    ALL_POSITIONS_MASK,
    BELOW,
    COPIES,
    HEART_SIZE,
    RANKS,
    free_mask,
    iter_bits,
)
from .moves import Action
from .solver import solve
from .state import PILE, new_game

_PILE_SHIFT = 26
_CURSOR_SHIFT = 53
_HEART_BITS = (1 << _PILE_SHIFT) - 1
_PILE_BITS = (1 << (_CURSOR_SHIFT - _PILE_SHIFT)) - 1
_UNREACHABLE = 1 << 30
# One search move: the key it leads to, the moves it costs and the taps that make them.
Edge = tuple[int, int, tuple[Action, ...]]
_HeartBound = tuple[int, tuple[tuple[int, int], ...], int, tuple[tuple[int, int, int], ...]]


def min_moves(
    code_or_deal: str | tuple[int, ...] | list[int], *, key: str | bytes | None = None
) -> int | None:
    """The fewest moves (draws, redeals and pairs, one each) that win the deal; None if no
    play wins it.

    The search is A* with moves in a normal form. A heart pair never depends on the pile, so
    in any winning line it can be made before the draws that precede it; a shortest line is
    therefore heart pairs and "bring pile card i to the waste top (the fewest stock taps, see
    draws_to) and pair it with a free heart card", costing those taps plus one. The lower
    bound h on the moves still needed sums two parts, since pairs and stock taps are
    different moves:

    - pairs: a rank with c cards left in the heart needs at least c - m more pairs, m being
      the most disjoint pairs of its copies that could ever be free together (two copies can
      never pair if one lies under the other, geometry.ABOVE/BELOW): a pair removes at most
      two of them, and a copy leaving with a pile card is a pair of its own;
    - stock taps: such a rank needs n = c - 2m of its pile cards to reach the waste top. A
      copy under the top may surface by pairing the cards above it (counted as 0 taps),
      unless a card of a rank gone from the heart lies above it: that card leaves the waste
      only by a redeal. Otherwise, and for a copy in the stock, nothing but stock taps brings
      it up, draws_to of them (each stock card before it must be turned first). So at least
      the n-th smallest of those counts of taps remain, and the largest over the ranks.

    Neither part can exceed what any winning continuation spends, so h never overestimates
    and the first won state A* takes from its queue is a shortest win. A state where some rank
    needs more pile cards than the pile holds has no win and is dropped. One more sound
    reduction: a rank with no copy left in the pile whose heart copies are all free can only
    leave in heart pairs among them, and making those at once changes nothing else (free cards
    stay free, the pile is untouched), so they are made without branching.

    >>> plan = min_moves_plan("HH1-N-AAAAAAM")
    >>> plan is None or min_moves("HH1-N-AAAAAAM") == _count_moves(plan)
    True
    """
    plan = min_moves_plan(code_or_deal, key=key)
    return None if plan is None else _count_moves(plan)


def min_moves_plan(
    code_or_deal: str | tuple[int, ...] | list[int], *, key: str | bytes | None = None
) -> list[Action] | None:
    """Taps that win the deal in exactly `min_moves` moves when replayed; None if none win."""
    if solve(code_or_deal, key=key) is None:  # fast, and spares A* a hopeless full search
        return None
    state = new_game(code_or_deal, key=key)
    return _Par(state.dealt, state.pos[PILE]).search()


def _count_moves(plan: list[Action]) -> int:
    """Moves in a plan of taps: every stock tap is one, and every two card taps make a pair."""
    stock = plan.count("stock")
    return stock + (len(plan) - stock) // 2


class _Par:
    """The A* search for one deal."""

    def __init__(self, heart: tuple[int, ...], pile: tuple[int, ...]) -> None:
        self.heart = heart
        self.pile = pile
        self.of_rank = _positions_by_rank(heart)
        self.pile_of_rank = [0] * 14  # pile indexes holding each rank
        for index, rank in enumerate(pile):
            self.pile_of_rank[rank] |= 1 << index
        self.full_pile = (1 << len(pile)) - 1
        self.bound_cache: dict[int, _HeartBound] = {}

    def search(self) -> list[Action] | None:
        """A* from the deal: the taps of a shortest win, or None."""
        start, taps = self.settle(0, self.full_pile, 1)
        origin: dict[int, tuple[int, tuple[Action, ...]]] = {start: (-1, taps)}
        best = {start: 0}
        queue = [(self.bound(start), 0, start)]
        while queue:
            _f, negative_g, node = heapq.heappop(queue)
            g = -negative_g
            if g > best[node]:
                continue
            if node & _HEART_BITS == ALL_POSITIONS_MASK:
                return _unwind(origin, node)
            for child, cost, taps in self.successors(node):
                if best.get(child, _UNREACHABLE) > g + cost:
                    h = self.bound(child)
                    if h < _UNREACHABLE:
                        best[child] = g + cost
                        origin[child] = (node, taps)
                        heapq.heappush(queue, (g + cost + h, -(g + cost), child))
        return None

    def successors(self, node: int) -> Iterator[Edge]:
        """Every heart pair, and every pile card brought to the waste top and paired."""
        removed = node & _HEART_BITS
        left = node >> _PILE_SHIFT & _PILE_BITS
        cursor = node >> _CURSOR_SHIFT
        heart, free = self.heart, free_mask(removed)
        for p in iter_bits(free):
            for q in iter_bits(free & self.of_rank[heart[p]] & ~((2 << p) - 1)):
                yield self.settled(removed | 1 << p | 1 << q, left, cursor, 1, (p, q))
        for rank in RANKS:
            cards = free & self.of_rank[rank]
            if not cards:
                continue
            for index in iter_bits(left & self.pile_of_rank[rank]):
                draws = self.draws_to(index, left, cursor)
                below = (left & ((1 << index) - 1)).bit_length()
                rest = left & ~(1 << index)
                for p in iter_bits(cards):
                    taps: tuple[Action, ...] = ("stock",) * draws + (p, "waste")
                    yield self.settled(removed | 1 << p, rest, below, draws + 1, taps)

    def settled(
        self, removed: int, left: int, cursor: int, cost: int, taps: tuple[Action, ...]
    ) -> Edge:
        """A move's key, cost and taps, once the forced heart pairs after it are made."""
        node, forced = self.settle(removed, left, cursor)
        return node, cost + len(forced) // 2, taps + forced

    def settle(self, removed: int, left: int, cursor: int) -> tuple[int, tuple[Action, ...]]:
        """Make every forced heart pair: ranks gone from the pile whose heart copies are all
        free (they can only leave in pairs among themselves, and sooner is never worse)."""
        taps: tuple[Action, ...] = ()
        changed = True
        while changed:
            changed = False
            free = free_mask(removed)
            for copies, in_pile, _count in self.heart_bound(removed)[3]:
                if copies & free == copies and not left & in_pile:
                    if copies.bit_count() & 1:
                        continue  # an odd count can never leave: the bound rejects the state
                    taps += tuple(iter_bits(copies))
                    removed |= copies
                    changed = True
        return removed | left << _PILE_SHIFT | cursor << _CURSOR_SHIFT, taps

    def draws_to(self, index: int, left: int, cursor: int) -> int:
        """Stock taps that bring pile card `index` to the waste top, with no pair on the way:
        none for the top; the stock cards up to it; or the rest of the stock, a redeal and the
        waste cards up to it when it lies below the top (the cards above it can only leave
        by being paired, so without pairs only a redeal reaches it)."""
        if index == cursor - 1:
            return 0
        upto = left & ((2 << index) - 1)
        if index >= cursor:
            return (upto >> cursor).bit_count()
        return (left >> cursor).bit_count() + 1 + upto.bit_count()

    def bound(self, node: int) -> int:
        """The admissible lower bound h (see min_moves), or _UNREACHABLE for a lost state."""
        removed = node & _HEART_BITS
        left = node >> _PILE_SHIFT & _PILE_BITS
        waste = left & ((1 << (node >> _CURSOR_SHIFT)) - 1)
        pairs, needs, stuck, _ranks = self.heart_bound(removed)
        # Waste cards above the highest card of a rank gone from the heart may surface by
        # pairs alone; cards below it only after a redeal, as stock cards are drawn.
        surfacing = waste & ~((1 << (stuck & waste).bit_length()) - 1)
        stock = left & ~waste
        draws = 0
        for in_pile, count in needs:
            copies = left & in_pile
            if count == 1:
                if copies & surfacing:
                    continue
                ahead = copies & stock
                if ahead:
                    reach = (stock & (ahead ^ (ahead - 1))).bit_count()
                elif copies:
                    behind = waste & (copies ^ (copies - 1))
                    reach = stock.bit_count() + 1 + behind.bit_count()
                else:
                    return _UNREACHABLE
            elif copies.bit_count() < count:
                return _UNREACHABLE
            else:
                reach = sorted(
                    self.reach(1 << i, waste, stock, surfacing) for i in iter_bits(copies)
                )[count - 1]
            if reach > draws:
                draws = reach
        return pairs + draws

    @staticmethod
    def reach(card: int, waste: int, stock: int, surfacing: int) -> int:
        """The fewest stock taps before the pile card (a one-bit mask) can top the waste: none
        if it may surface by pairs; else the stock cards up to it, or for a waste card the
        whole stock, a redeal and the waste cards up to it."""
        if card & surfacing:
            return 0
        if card & stock:
            return (stock & ((card << 1) - 1)).bit_count()
        return stock.bit_count() + 1 + (waste & ((card << 1) - 1)).bit_count()

    def heart_bound(self, removed: int) -> _HeartBound:
        """For a removed set: the fewest pairs left; (pile indexes, pile cards needed) of each
        rank that needs some; the pile indexes of the ranks gone from the heart; and (heart
        positions, pile indexes, copies) of each rank still in the heart."""
        cached = self.bound_cache.get(removed)
        if cached is None:
            pairs, needs, stuck, ranks = 0, [], 0, []
            for rank in RANKS:
                copies = self.of_rank[rank] & ~removed
                count = copies.bit_count()
                matched = _most_pairs(copies)
                pairs += count - matched
                if count > 2 * matched:
                    needs.append((self.pile_of_rank[rank], count - 2 * matched))
                if count:
                    ranks.append((copies, self.pile_of_rank[rank], count))
                else:
                    stuck |= self.pile_of_rank[rank]
            cached = (pairs, tuple(needs), stuck, tuple(ranks))
            self.bound_cache[removed] = cached
        return cached


def _positions_by_rank(heart: tuple[int, ...]) -> list[int]:
    of_rank = [0] * 14
    for p in range(1, HEART_SIZE + 1):
        of_rank[heart[p]] |= 1 << p
    return of_rank


@cache
def _most_pairs(copies: int) -> int:
    """The most disjoint pairs among up to four heart positions that could be free together."""
    cards = list(iter_bits(copies))
    if len(cards) < 2:
        return 0
    first, rest = cards[0], cards[1:]
    best = _most_pairs(copies & ~(1 << first))  # the first card pairs with the pile
    for other in rest:
        if not (ABOVE[first] | BELOW[first]) >> other & 1:
            best = max(best, 1 + _most_pairs(copies & ~(1 << first) & ~(1 << other)))
    return min(best, COPIES // 2)


def _unwind(origin: dict[int, tuple[int, tuple[Action, ...]]], node: int) -> list[Action]:
    """The taps from the start to a node, following each node's best parent."""
    chunks = []
    while node != -1:
        node, taps = origin[node]
        chunks.append(taps)
    return [tap for chunk in reversed(chunks) for tap in chunk]
