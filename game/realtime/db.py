"""Where the realtime sockets' database work runs: on the play sockets' database thread.

One thread for every socket's queries and writes means a presence row or a room change never
contends with a move for SQLite's write lock (game.services.dbthread says why it exists).
"""

from game.services.dbthread import on_db_thread as db

__all__ = ["db"]
