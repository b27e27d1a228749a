"""Channels' `AsyncConsumer.__call__` and `dispatch`, written again for the site's sockets,
because Channels' own spend time on every message that these sockets need not spend.

- Channels reads a consumer's sources (the client's frames, the channel layer's messages)
  with `await_many_dispatch`, which makes a task and an `asyncio.wait` over them for every
  message: 6 % of a daphne's time at saturation (py-spy, play only, 50 players;
  docs/performance.md, "Second round: three references, profiled"). Here one reader per
  source runs for the socket's whole life; the handlers still run one at a time, in the order
  their messages arrive.
- Channels' `dispatch` (4.2+) first runs `close_old_connections` on its sync thread: a thread
  round trip per message, a third of the echo's own time (docs/performance.md, "Channels'
  per-frame hop"). These sockets touch no connection of that thread: their database work runs
  on game.storage.dbthread's workers, which keep their own.

The rest is Channels' own: the scope, the send, the channel layer and the consumer's channel on
it, and StopConsumer ending the consumer.
"""

import asyncio
import contextlib
import functools

from channels.consumer import get_handler_name
from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from channels.layers import get_channel_layer


class OneLoopConsumer(AsyncJsonWebsocketConsumer):
    """A JSON websocket consumer whose messages are read by one loop per source."""

    async def __call__(self, scope: dict, receive, send) -> None:
        self.scope, self.base_send, sources = scope, send, [receive]
        self.channel_layer = get_channel_layer(self.channel_layer_alias)
        if self.channel_layer is not None:
            self.channel_name = await self.channel_layer.new_channel()
            self.channel_receive = functools.partial(self.channel_layer.receive, self.channel_name)
            sources.append(self.channel_messages)
        await self.consume(sources)

    async def consume(self, sources: list) -> None:
        """Every message of every source, dispatched until the consumer stops."""
        with contextlib.suppress(StopConsumer):  # the client left (websocket_disconnect)
            await dispatch_each(sources, self.dispatch)

    async def channel_messages(self) -> dict:
        """The consumer's next message from the channel layer."""
        return await self.channel_receive()

    async def dispatch(self, message: dict) -> None:
        handler = getattr(self, get_handler_name(message), None)
        if handler is not None:
            return await handler(message)
        # A game's group is the play sockets', the spectators' and the race rooms', and each
        # may add messages of its own (game.*): a socket passes over those it has no use for.
        if not message["type"].startswith("game."):
            raise ValueError(f"no handler for message type {message['type']}")


async def dispatch_each(sources: list, dispatch) -> None:
    """Every message of every source to `dispatch`, one at a time in the order they arrive,
    until a handler raises (StopConsumer when the client has left). A source that fails ends
    the consumer: a source that must outlive its failures answers them itself (as
    game.sockets.base.Socket.channel_messages does the channel layer's)."""
    turn = asyncio.Lock()

    async def read(source) -> None:
        while True:
            message = await source()
            async with turn:
                await dispatch(message)

    readers = [asyncio.ensure_future(read(source)) for source in sources]
    try:
        await asyncio.gather(*readers)
    finally:
        for reader in readers:
            reader.cancel()
        await asyncio.gather(*readers, return_exceptions=True)
