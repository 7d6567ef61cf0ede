"""The house table as a Django app: its sweep (services.keep_going, in each serving process) is
registered with everyone else's in games/wiring.py."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class HouseTableConfig(AppConfig):
    name = "games.housetable"
    label = "housetable"
    verbose_name = _("House table")
