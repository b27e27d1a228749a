"""A channel layer that fails on command, as a Redis that stops and starts does."""

import asyncio

import pytest
from channels.layers import InMemoryChannelLayer, channel_layers

from tests.site import open_socket


class LayerDown(ConnectionError):
    """What the failing layer raises: redis-py's ConnectionError is one too."""


class FailingLayer(InMemoryChannelLayer):
    """The in-memory layer, but between `stop()` and `start()` every call raises, and a receive
    that waits raises at once (a stopped Redis closes its connections). `start()` forgets every
    group, as a Redis that restarts without persistence does. `calls` counts the calls made
    while it is stopped."""

    def __init__(self) -> None:
        super().__init__()
        self.stopped = False
        self.calls = 0
        self.stopping: asyncio.Event | None = None

    def stop(self) -> None:
        self.stopped = True
        if self.stopping is not None:
            self.stopping.set()

    def start(self) -> None:
        self.stopped, self.stopping = False, None
        self.groups.clear()

    def _check(self) -> None:
        if self.stopped:
            self.calls += 1
            raise LayerDown("the channel layer is stopped")

    async def send(self, channel, message):
        self._check()
        await super().send(channel, message)

    async def group_add(self, group, channel):
        self._check()
        await super().group_add(group, channel)

    async def group_discard(self, group, channel):
        self._check()
        await super().group_discard(group, channel)

    async def group_send(self, group, message):
        self._check()
        await super().group_send(group, message)

    async def receive(self, channel):
        self._check()
        if self.stopping is None:
            self.stopping = asyncio.Event()
        stopping = asyncio.ensure_future(self.stopping.wait())
        receiving = asyncio.ensure_future(super().receive(channel))
        try:
            await asyncio.wait({stopping, receiving}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            stopping.cancel()
            if not receiving.done():
                receiving.cancel()
        if receiving.done() and not receiving.cancelled():
            return receiving.result()
        self._check()
        raise LayerDown("the channel layer stopped")


def installed():
    """The site's channel layer for a test: a FailingLayer (a test module's fixture yields
    from this)."""
    channel_layers.backends.clear()
    layer = channel_layers.backends["default"] = FailingLayer()
    yield layer
    channel_layers.backends.clear()


@pytest.fixture
def failing_layer():
    """A FailingLayer installed as the site's channel layer for the test (installed())."""
    yield from installed()


async def opened(cookie: str, code: str):
    """A play socket past its greeting (asserted: it connected and was shown its game)."""
    from h2h_site.asgi import application  # imported late: it sets up the whole site

    socket = await open_socket(application, code, cookie)
    assert socket.connected
    assert (await socket.receive_json_from())["type"] == "state"
    return socket


@pytest.fixture(autouse=True)
def fresh_channel_layer():
    """A channel layer of the test's own (import this fixture into a test module to use it).

    Every async test runs on an event loop of its own, and the Redis layer keeps asyncio locks
    bound to the loop that first waited on them.
    """
    channel_layers.backends.clear()
    yield
    channel_layers.backends.clear()
