"""Flood control for one socket: a token bucket for frames, and a close for a client that floods.

Every socket has one (game.sockets.base), each with its own numbers. A socket may send bursts of
`burst` frames, refilled at `rate` frames a second (the play socket: settings TAP_BURST = 20
and TAP_RATE = 10, from H2H_TAP_BURST / H2H_TAP_RATE, a rate of 0 meaning no limit, for
benchmarks; the public sockets: 20 and 5). A frame beyond the bucket is refused and not
applied. Each refusal adds one to a debt that drains at half the rate; a debt above the burst
means the client keeps flooding after being told, so a limiter that `closes` says CLOSE (the
play socket then closes with 4008). A client somewhat too fast (up to one and a half times
the rate) is only told; twice the rate is closed within seconds, and of a burst at once the
frame after twice the bucket closes the socket.

>>> clock = FakeClock()
>>> limiter = FrameLimiter(rate=10, burst=3, clock=clock)
>>> [limiter.take() for _ in range(5)]
[ADMIT, ADMIT, ADMIT, REFUSE, REFUSE]
>>> clock.now += 0.1  # one frame's worth of refill, half a refusal forgiven
>>> limiter.take()
ADMIT
>>> [limiter.take() for _ in range(3)]  # the debt goes 2.5, 3.5: above the burst of 3
[REFUSE, CLOSE, CLOSE]
>>> patient = FrameLimiter(rate=10, burst=3, closes=False, clock=FakeClock())
>>> [patient.take() for _ in range(8)]  # only told, however long it floods
[ADMIT, ADMIT, ADMIT, REFUSE, REFUSE, REFUSE, REFUSE, REFUSE]
"""

import time
from collections.abc import Callable
from enum import Enum

from django.conf import settings


class Verdict(Enum):
    """What to do with one incoming frame."""

    ADMIT = "admit"
    REFUSE = "refuse"  # answer `rate_limited`, apply nothing
    CLOSE = "close"  # the client keeps flooding: close the socket (a limiter that `closes`)

    def __repr__(self) -> str:
        return self.name


class FrameLimiter:
    """A token bucket of frames plus a debt of refused ones; `rate` 0 admits everything, and
    one that does not `close` only ever refuses."""

    def __init__(
        self,
        *,
        rate: float,
        burst: int,
        closes: bool = True,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.rate, self.burst, self.closes, self.clock = rate, burst, closes, clock
        self.tokens, self.debt = float(burst), 0.0
        self.at = clock()

    @classmethod
    def from_settings(cls) -> "FrameLimiter":
        """The deployment's limits (settings.TAP_RATE, settings.TAP_BURST)."""
        return cls(rate=settings.TAP_RATE, burst=settings.TAP_BURST)

    def take(self) -> Verdict:
        """Spend a token on one frame, or say why not."""
        if self.rate <= 0:
            return Verdict.ADMIT
        self._refill()
        if self.tokens >= 1:
            self.tokens -= 1
            return Verdict.ADMIT
        self.debt += 1
        return Verdict.CLOSE if self.closes and self.debt > self.burst else Verdict.REFUSE

    def _refill(self) -> None:
        now = self.clock()
        gained, self.at = (now - self.at) * self.rate, now
        self.tokens = min(float(self.burst), self.tokens + gained)
        self.debt = max(0.0, self.debt - gained / 2)


class FakeClock:
    """A clock that moves only when told: for tests and doctests."""

    def __init__(self, now: float = 0.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now
