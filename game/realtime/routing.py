"""The realtime sockets' routes, appended to game.routing (docs/protocol.md, "Realtime")."""

from django.urls import path

from game.realtime.consumers import LiveConsumer, RaceConsumer, WatchConsumer

websocket_urlpatterns = [
    path("ws/live/home/", LiveConsumer.as_asgi(kind="home")),
    path("ws/live/daily/<str:day>/", LiveConsumer.as_asgi(kind="daily")),
    path("ws/live/deal/<str:code>/", LiveConsumer.as_asgi(kind="deal")),
    path("ws/live/all-time/", LiveConsumer.as_asgi(kind="all-time")),
    path("ws/watch/<int:game_id>/", WatchConsumer.as_asgi()),
    path("ws/race/<str:room>/", RaceConsumer.as_asgi()),
]
