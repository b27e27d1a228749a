"""What the storage announces for a process to count (game.runtime.metrics connects to these):
the storage never imports the runtime, which holds the metrics.

Each is sent with `sender` None and the keyword arguments named beside it.
"""

from django.dispatch import Signal

moves_stored = Signal()  # moves: int, seconds: float: one group commit of moves, stored or not
layer_call_failed = Signal()  # op: str: a call on the channel layer failed or was too slow
layer_call_skipped = Signal()  # op: str: a call not made, the channel layer being down
layer_answering = Signal()  # up: bool: the channel layer went down, or answers again
