"""Quick pairing as a Django app: its sweep (every second in each serving process) and its
log-out receiver are registered with everyone else's in games/wiring.py."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PairingConfig(AppConfig):
    name = "games.pairing"
    label = "pairing"
    verbose_name = _("Quick pairing")
