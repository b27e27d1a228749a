"""The real processes the system tests, the browser tests and the benchmarks (bench/) drive:
daphne, the deployment kit's nginx, PostgreSQL databases and redis-servers of their own, the
players that play on them, and the runs that break them (crash, hostile frames, concurrency, a
Redis outage, a reconnect storm). bench/ may use this package; nothing here imports bench/.
"""
