"""Websocket routes; h2h_site.asgi wraps them in origin validation and the session login."""

from django.urls import path

from game.consumers import PlayConsumer

websocket_urlpatterns = [
    path("ws/play/<str:code>/", PlayConsumer.as_asgi()),
]

# Live boards, presence, spectating and race rooms (game/realtime/).
from game.realtime.routing import websocket_urlpatterns as realtime_urlpatterns  # noqa: E402

websocket_urlpatterns += realtime_urlpatterns
