"""How a simulated person picks the next tap from the public view alone (no hidden cards).

Pairs first, then the waste, then the stock; now and then an undo or a mismatched card, as
people do. It knows only what the board shows, so it is a fair load, not a solver.

`next_action` remembers nothing, so its undos come at random: load for the server's undo path
(bench.load, bench.soak). A `Person` remembers their own moves and takes some back for a
reason, as people do: what bench.flags measures the stock_scouted flag on. `HUMAN_PAUSE_S`
is a person's pace between taps, and `frame_text` the frame a page sends for an action.
"""

import json
import random

from game.engine.geometry import free_mask

UNDO_CHANCE = 0.03
MISMATCH_CHANCE = 0.03
REGRET_CHANCE = 0.5  # a pair that another pairing would have beaten is noticed and taken back
OVERLOOK_CHANCE = 0.1  # a pair with the waste's top is missed and a card drawn over it ...
NOTICE_CHANCE = 0.5  # ... and that draw is noticed and taken back
NOTICED_AFTER = (0, 0, 0, 1, 2, 3)  # more moves made before a mistake is noticed
HUMAN_PAUSE_S = (0.25, 0.75)  # between a person's taps: 500 ms ± 50 %


def frame_text(seq: int, kind: str, target=None) -> str:
    """The frame a page sends for an action (next_action's kind and target)."""
    frame = {"type": kind, "seq": seq} | ({"target": target} if kind == "tap" else {})
    return json.dumps(frame)


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


def pairs_in(view: dict) -> list[tuple[int, int | str]]:
    """The pairs on the board in reading order: heart and heart, then a heart card and the waste."""
    free = free_cards(view)
    pairs: list[tuple[int, int | str]] = [
        (p, q) for i, (p, rank) in enumerate(free) for q, other in free[i + 1 :] if other == rank
    ]
    return pairs + [(p, "waste") for p, rank in free if rank == view["waste"]["top"]]


def freed_by(view: dict, pair: tuple[int, int | str]) -> int:
    """How many heart cards the pair frees: what a person reads off the heart's layout."""
    removed = sum(1 << p for p, card in enumerate(view["heart"], 1) if card is None)
    taken = removed | sum(1 << p for p in pair if p != "waste")
    return (free_mask(taken) & ~free_mask(removed) & ~taken).bit_count()


class Person:
    """A simulated person with a memory of their own moves, who takes some back as people do:
    a pair that another pairing would have beaten (freed more cards), and a draw over a waste
    card that paired. Noticed at once or a few moves later, when the moves since go back too;
    then the person plays that moment with care (the best pair, no pair missed)."""

    def __init__(
        self, overlook: float = OVERLOOK_CHANCE, notice: float = NOTICE_CHANCE, regret=REGRET_CHANCE
    ) -> None:
        self.overlook, self.notice, self.regret = overlook, notice, regret
        self.mistake: tuple[int, int] | None = None  # (moves before it, moves when noticed)
        self.undoing = self.careful = False
        self.aim: int | str | None = None  # the chosen pair's second card

    def next_action(self, view: dict, rng: random.Random) -> tuple[str, object]:
        """("tap", target) or ("undo", None) for a game that is neither won nor deadlocked."""
        if self._takes_back(view):
            return "undo", None
        if view["selected"] is not None:
            return "tap", self._second_card(view)
        free = free_cards(view)
        if free and rng.random() < MISMATCH_CHANCE:
            return "tap", rng.choice(free)[0]
        pairs = [] if self._overlooks(view, rng) else pairs_in(view)
        first, self.aim = self._chosen(view, pairs, rng) if pairs else ("stock", None)
        self.careful = False
        return "tap", first

    def _takes_back(self, view: dict) -> bool:
        if self.mistake is None:
            return False
        before, noticed = self.mistake
        self.undoing = self.undoing or view["moves"] >= noticed
        if self.undoing and view["moves"] > before and view["can_undo"]:
            return True
        if self.undoing:
            self.mistake, self.undoing, self.careful = None, False, True
        return False

    def _second_card(self, view: dict) -> int | str:
        selected, aim = view["selected"], self.aim
        self.aim = None
        if aim not in (None, selected) and rank_of(view, aim) == rank_of(view, selected):
            return aim
        match = partner(view, rank_of(view, selected), selected)
        return match if match is not None else selected

    def _overlooks(self, view: dict, rng: random.Random) -> bool:
        """Now and then a pair with the waste is missed and a card drawn over it: never while a
        pair in the heart shows, nor right after taking such a draw back."""
        pairs = pairs_in(view)
        if self.careful or not pairs or pairs[0][1] != "waste" or rng.random() >= self.overlook:
            return False
        self._made_a_mistake(view, rng, self.notice)
        return True

    def _chosen(self, view: dict, pairs: list, rng: random.Random) -> tuple[int, int | str]:
        """The first pair a person reads, or with care the one that frees the most."""
        best = max(pairs, key=lambda pair: freed_by(view, pair))
        if self.careful:
            return best
        if freed_by(view, pairs[0]) < freed_by(view, best):
            self._made_a_mistake(view, rng, self.regret)
        return pairs[0]

    def _made_a_mistake(self, view: dict, rng: random.Random, noticed: float) -> None:
        """Whether the move about to be made will be noticed as a mistake, and how much later."""
        if self.mistake is None and rng.random() < noticed:
            self.mistake = (view["moves"], view["moves"] + 1 + rng.choice(NOTICED_AFTER))
