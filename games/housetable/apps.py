"""The house table as a Django app: its sweep runs in each serving process."""

from django.apps import AppConfig
from django.conf import settings


class HouseTableConfig(AppConfig):
    name = "games.housetable"
    label = "housetable"
    verbose_name = "House table"

    def ready(self) -> None:
        from games.housetable import services
        from games.live import runner

        if settings.HOUSE_TABLE:
            # Starts the house table when none runs and no person's game may be watched.
            runner.every(settings.HOUSE_TABLE_SWEEP_SECONDS, services.keep_going)
