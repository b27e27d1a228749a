"""The realtime sockets: transport only, like game.consumers. Each decodes a frame, calls a
service of game.realtime, and sends what it returns; docs/protocol.md ("Realtime") lists them.
"""

from game.realtime.consumers.live import LiveConsumer
from game.realtime.consumers.race import RaceConsumer
from game.realtime.consumers.watch import WatchConsumer

__all__ = ["LiveConsumer", "RaceConsumer", "WatchConsumer"]
