"""Websocket routes (docs/protocol.md); h2h_site.asgi wraps them in origin validation and the
session login."""

from django.urls import path

from game.sockets.boards import BoardConsumer
from game.sockets.play import PlayConsumer
from game.sockets.quick import QuickConsumer
from game.sockets.race import RaceConsumer
from game.sockets.watch import WatchConsumer

websocket_urlpatterns = [
    path("ws/play/<str:code>/", PlayConsumer.as_asgi()),
    path("ws/live/home/", BoardConsumer.as_asgi(board_kind="home")),
    path("ws/live/daily/<str:day>/", BoardConsumer.as_asgi(board_kind="daily")),
    path("ws/live/deal/<str:code>/", BoardConsumer.as_asgi(board_kind="deal")),
    path("ws/live/all-time/", BoardConsumer.as_asgi(board_kind="all-time")),
    path("ws/watch/<int:game_id>/", WatchConsumer.as_asgi()),
    path("ws/race/quick/", QuickConsumer.as_asgi()),  # before the rooms: "quick" is no room
    path("ws/race/<str:room>/", RaceConsumer.as_asgi()),
]
