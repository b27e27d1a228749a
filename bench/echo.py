"""A bare echo consumer, mounted only for the load benchmark: the platform's own limit.

It answers each frame with a frame as large as a typical game reply, so the benchmark
compares equal work on the wire; only the game's own logic differs.
"""

from channels.generic.websocket import AsyncWebsocketConsumer
from django.urls import path

REPLY_BYTES = 1000  # about the size of a state frame carrying a public view (compact JSON)


class EchoConsumer(AsyncWebsocketConsumer):
    async def receive(self, text_data=None, bytes_data=None) -> None:
        await self.send(text_data=text_data + " " * max(0, REPLY_BYTES - len(text_data)))


echo_urlpatterns = [path("ws/echo/", EchoConsumer.as_asgi())]
