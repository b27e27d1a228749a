"""What lives in one server process's memory: open games, the audience, presence's heartbeat,
the par searcher, metrics and the race clock. Above the services, below the sockets and pages."""
