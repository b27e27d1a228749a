"""How many sockets are open on this process, per key (a player, an address), each key
capped: one more is refused `too_many_sockets` (game.sockets.base).

The count lives in the process, so a crash never leaves stale entries.
"""

import contextlib
from collections import defaultdict
from collections.abc import Callable, Hashable


class SocketCount:
    """Sockets open on this process per key, at most `cap()` each."""

    def __init__(self, cap: Callable[[], int]) -> None:
        self.cap = cap
        self.open: dict[Hashable, set[str]] = defaultdict(set)

    def add(self, *, key: Hashable, channel: str) -> bool:
        """Count one more socket; False (and not counted) if its key is at the cap."""
        if len(self.open.get(key, ())) >= self.cap():
            return False
        self.open[key].add(channel)
        return True

    @contextlib.contextmanager
    def held(self, *, key: Hashable, channel: str):
        """One socket's place in the count for as long as the block runs (its life): yields
        True, or False (holding nothing) if its key is at the cap."""
        if not self.add(key=key, channel=channel):
            yield False
            return
        try:
            yield True
        finally:
            self.discard(key=key, channel=channel)

    def discard(self, *, key: Hashable, channel: str) -> None:
        sockets = self.open.get(key)
        if sockets is not None:
            sockets.discard(channel)
            if not sockets:
                del self.open[key]

    def total(self) -> int:
        """Every counted socket on this process (the soak benchmark checks it returns to 0)."""
        return sum(len(sockets) for sockets in self.open.values())
