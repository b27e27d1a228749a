"""When the database cannot take a write now: it is down or restarting, read-only, out of
reach, or too slow to answer. A write that met one of these was not stored (or, rarely, its
commit's answer was lost: the stored log says which), and the same write may be made again
once the database is back. Any other error is a fault of the code, not of the database.
"""

from django.db import InterfaceError, InternalError, OperationalError

# OperationalError: a lost or refused connection, SQLite's read-only or locked database, a
# cancelled statement, a pool with no free connection; InterfaceError: a connection already
# closed; InternalError: PostgreSQL's read-only transaction.
UNAVAILABLE = (OperationalError, InterfaceError, InternalError, TimeoutError)
