"""Websocket routes; h2h_site.asgi wraps them in origin validation and the session login."""

from django.urls import path

from game.consumers import PlayConsumer

websocket_urlpatterns = [
    path("ws/play/<str:code>/", PlayConsumer.as_asgi()),
]
