"""Websocket routes; h2h_site.asgi wraps them in origin validation and the session login."""

from django.urls import path

from game.consumers import PlayConsumer
from game.realtime.routing import websocket_urlpatterns as realtime_urlpatterns

websocket_urlpatterns = [
    path("ws/play/<str:code>/", PlayConsumer.as_asgi()),
    *realtime_urlpatterns,  # live boards, spectating and race rooms (game/realtime/)
]
