"""Two echoes for the load benchmark, served by the same process as the site's sockets.

Each answers a frame with a frame as large as a typical game reply, so the benchmark compares
equal work on the wire; only what stands behind the socket differs:
- /ws/echo/: a Channels consumer behind the same origin checks and login as the game's sockets
  (the platform's own limit: a tap can at best cost what this costs);
- /ws/floor/: a bare ASGI application, no Channels at all (the floor: daphne and the
  websocket protocol alone, what any consumer pays).
`daphne bench.echo:application` serves the site with both added; the site itself never
mounts them.
"""

from channels.generic.websocket import AsyncWebsocketConsumer
from django.urls import path

from h2h_site.asgi import site_application, websocket_urlpatterns

REPLY_BYTES = 1000  # about the size of a state frame carrying a public view (compact JSON)
FLOOR_PATH = "/ws/floor/"


def padded(text: str) -> str:
    return text + " " * max(0, REPLY_BYTES - len(text))


class EchoConsumer(AsyncWebsocketConsumer):
    async def receive(self, text_data=None, bytes_data=None) -> None:
        await self.send(text_data=padded(text_data))


async def bare_echo(scope: dict, receive, send) -> None:
    """A websocket echo in plain ASGI: accept, then answer every text frame until it closes."""
    await receive()  # websocket.connect
    await send({"type": "websocket.accept"})
    while (message := await receive())["type"] == "websocket.receive":
        await send({"type": "websocket.send", "text": padded(message.get("text") or "")})


def with_floor(site):
    """`site`, with FLOOR_PATH answered by bare_echo before any of Channels' routing."""

    async def application(scope: dict, receive, send) -> None:
        if scope["type"] == "websocket" and scope["path"] == FLOOR_PATH:
            return await bare_echo(scope, receive, send)
        return await site(scope, receive, send)

    return application


application = with_floor(
    site_application([path("ws/echo/", EchoConsumer.as_asgi()), *websocket_urlpatterns])
)
