"""A bare echo consumer for the load benchmark: the platform's own limit.

It answers each frame with a frame as large as a typical game reply, so the benchmark
compares equal work on the wire; only the game's own logic differs. `daphne
bench.echo:application` serves the site with /ws/echo/ added, behind the same origin checks
and login as the game's sockets; the site itself never mounts it.
"""

from channels.generic.websocket import AsyncWebsocketConsumer
from django.urls import path

from h2h_site.asgi import site_application, websocket_urlpatterns

REPLY_BYTES = 1000  # about the size of a state frame carrying a public view (compact JSON)


class EchoConsumer(AsyncWebsocketConsumer):
    async def receive(self, text_data=None, bytes_data=None) -> None:
        await self.send(text_data=text_data + " " * max(0, REPLY_BYTES - len(text_data)))


application = site_application([path("ws/echo/", EchoConsumer.as_asgi()), *websocket_urlpatterns])
