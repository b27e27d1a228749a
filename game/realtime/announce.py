"""The hook the result-writing service calls: tell the live boards and a race after commit.

Imported by game/services/results.py, so it imports no service itself: only models and the
realtime modules that need nothing more.
"""

from game.models import Result
from game.realtime.boards import board_result_recorded
from game.realtime.rooms import race_result_recorded


def result_announce(*, result: Result) -> None:
    """Inside the result's transaction: bump versions now, publish once it commits."""
    board_result_recorded(result=result)
    race_result_recorded(result=result)
