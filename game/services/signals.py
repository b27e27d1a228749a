"""What the use cases announce for what lives in a server process to act on (game.runtime
connects to these as the app starts): the services never import the runtime.

Each is sent with `sender` None and the keyword arguments named beside it, inside the
transaction that made it; a receiver that acts only on what was committed waits for the commit.
"""

from django.dispatch import Signal

# result: Result, status: str (how its game ended): the par search and the metrics hear it
result_recorded = Signal()
# reason: str: a result was flagged for a person to review
result_flagged = Signal()
# code: str: a day's deal was derived and certified winnable; its par is settled by the time
# the signal returns (the search runs in the runtime's child process)
deal_certified = Signal()
