"""Who the quick race puts together: players of close Race ratings, the window widening the
longer they wait. Pure: the queue (game.services.quick) hands it the waiting players and the
rooms still counting down, and stores what it decides.

A player's window is ±WINDOW rating points, widened by WIDENING every STEP_S seconds of
waiting. Two players may race when their gap lies within both windows. The oldest waiter is
served first: into the room counting down, with a seat, closest to their rating whose span
(highest minus lowest rating) with them stays within JOIN_SHARE of their window, or else
with the players closest to them, as many as fit (at most MAX_RACERS) while the group's span
stays within every member's window. Joining asks a closer fit than pairing, so that a room
does not drift apart as it fills: with the whole window, 20 arrivals a minute rated
N(1500, 300) (bench.matchmaking_model) put the median span of a race at 240-250; with three
quarters, at 195-200,
for about a second more at the 95th percentile of the time to the start.

>>> waiters = [Waiter("a", 1500, 0), Waiter("b", 1650, 0), Waiter("c", 2100, 0)]
>>> quick_matches(waiters, [])
Matches(joins=[], groups=[['a', 'b']])
>>> quick_matches([Waiter("c", 2100, 0), Waiter("d", 1800, 6)], [Opening("R", [1650, 1700], 6)])
Matches(joins=[('d', 'R')], groups=[])
"""

from collections.abc import Hashable
from dataclasses import dataclass, field

WINDOW = 300  # rating points either side, at first
WIDENING = 150  # more rating points ...
STEP_S = 5  # ... for every this many seconds of waiting
MAX_RACERS = 8
JOIN_SHARE = 0.75  # of a waiter's window: the span a room counting down may reach with them


def window(waited_s: float) -> float:
    """How far from their own rating a player who waited this long may be matched.

    >>> window(0), window(4.9), window(5), window(12)
    (300, 300, 450, 600)
    """
    return WINDOW + WIDENING * int(max(waited_s, 0) // STEP_S)


@dataclass(frozen=True)
class Waiter:
    key: Hashable
    rating: float
    waited_s: float

    @property
    def window(self) -> float:
        return window(self.waited_s)


@dataclass
class Opening:
    """A room counting down that a waiter may still join: its racers' ratings, seats left."""

    key: Hashable
    ratings: list[float]
    seats: int

    @property
    def mean(self) -> float:
        return sum(self.ratings) / len(self.ratings)


@dataclass
class Matches:
    joins: list[tuple[Hashable, Hashable]] = field(default_factory=list)  # (waiter, room)
    groups: list[list[Hashable]] = field(default_factory=list)  # each a new room's waiters


def quick_matches(waiters: list[Waiter], openings: list[Opening]) -> Matches:
    """Rooms joined and new rooms formed, the longest waiter served first."""
    matches = Matches()
    left = sorted(waiters, key=lambda waiter: -waiter.waited_s)
    while left:
        oldest = left.pop(0)
        room = _closest_opening(oldest, openings)
        if room is not None:
            matches.joins.append((oldest.key, room.key))
            room.ratings.append(oldest.rating)
            room.seats -= 1
            continue
        group = _group_around(oldest, left)
        if len(group) > 1:
            matches.groups.append([waiter.key for waiter in group])
            left = [waiter for waiter in left if waiter not in group]
    return matches


def _closest_opening(waiter: Waiter, openings: list[Opening]) -> Opening | None:
    fit = JOIN_SHARE * waiter.window
    near = [room for room in openings if room.seats > 0 and _spread(room, waiter) <= fit]
    return min(near, key=lambda room: abs(room.mean - waiter.rating), default=None)


def _spread(room: Opening, waiter: Waiter) -> float:
    ratings = [*room.ratings, waiter.rating]
    return max(ratings) - min(ratings)


def _group_around(first: Waiter, others: list[Waiter]) -> list[Waiter]:
    """`first` and the closest others whose addition keeps the spread within every window."""
    group = [first]
    for other in sorted(others, key=lambda waiter: abs(waiter.rating - first.rating)):
        candidate = [*group, other]
        spread = max(w.rating for w in candidate) - min(w.rating for w in candidate)
        if spread <= min(w.window for w in candidate):
            group = candidate
        if len(group) == MAX_RACERS:
            break
    return group
