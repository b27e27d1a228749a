"""Realtime together: live leaderboards, who is playing, spectating, races and replays.

Services (one topic a module) and their consumers (`game.realtime.consumers`). Everything a
client learns goes through the channel layer's groups (docs/protocol.md, "Realtime") or a
snapshot read from the database, so it works the same with one process or several sharing Redis:

- `boards`: the live leaderboards' rows, versions and snapshots; `announce`: the hook the
  result-writing service calls, which publishes a new result after commit.
- `presence`: open play sockets ("N playing now") and spectators, counted in the database.
- `watching`: who may watch or replay a game, and what a spectator is sent (the public view).
- `replays`: a completed game step by step, each step's public view computed on the server.
- `races`, `rooms` and `race_view`: race rooms from lobby to result table.
"""
