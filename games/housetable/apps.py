"""The house table as a Django app: its sweep (services.keep_going, in each serving process) is
registered with everyone else's in games/wiring.py."""

from django.apps import AppConfig


class HouseTableConfig(AppConfig):
    name = "games.housetable"
    label = "housetable"
    verbose_name = "House table"
