from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    """Tournaments as a Django app; its receiver (a table that ends is recorded at once) and its
    sweep are registered with everyone else's in games/wiring.py."""

    name = "games.tournaments"
    label = "tournaments"
    verbose_name = _("Tournaments")
