"""Where the sockets' database work other than a move runs: on the sockets' database workers.

Their connections stay open while there is work (game.storage.dbthread says why), and moves
have workers of their own, so a room change or a presence write never queues ahead of a move.
On SQLite they still share its one write lock: presence writes come in batches for that
reason (game.runtime.presence).
"""

from game.storage.dbthread import on_db_thread as db

__all__ = ["db"]
