"""Websocket URLs."""

from django.urls import path

from games.live.consumer import GameConsumer

websocket_urlpatterns = [
    path("ws/games/<int:game_id>/", GameConsumer.as_asgi()),
]
