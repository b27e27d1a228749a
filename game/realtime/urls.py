"""The realtime pages' routes, appended to game.urls."""

from django.urls import path

from game.realtime import views

urlpatterns = [
    path("race/", views.race_home, name="race_home"),
    path("race/new/", views.race_new, name="race_new"),
    path("race/find/", views.race_find, name="race_find"),
    path("race/<str:room>/", views.race_room, name="race_room"),
    path("watch/<int:game_id>/", views.watch, name="watch"),
    path("replay/<int:game_id>/", views.replay, name="replay"),
    path("replay/<int:game_id>/steps/", views.replay_steps_json, name="replay_steps"),
]
