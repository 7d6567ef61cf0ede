"""Websocket URLs."""

from django.urls import path

from games.live.consumer import GameConsumer
from games.pairing.live import PairingConsumer
from games.reviews.live import ReviewConsumer
from games.tournaments.live import TournamentConsumer

websocket_urlpatterns = [
    path("ws/games/<int:game_id>/", GameConsumer.as_asgi()),
    path("ws/pairing/", PairingConsumer.as_asgi()),
    path("ws/tournaments/<int:tournament_id>/", TournamentConsumer.as_asgi()),
    path("ws/games/<int:game_id>/review/<int:seat>/", ReviewConsumer.as_asgi()),
]
