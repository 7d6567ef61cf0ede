"""Quick pairing as a Django app: its sweep (every second in each serving process) and its
log-out receiver are registered with everyone else's in games/wiring.py."""

from django.apps import AppConfig


class PairingConfig(AppConfig):
    name = "games.pairing"
    label = "pairing"
    verbose_name = "Quick pairing"
