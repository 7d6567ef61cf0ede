from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games"

    def ready(self) -> None:
        from games import wiring  # every receiver and periodic job, registered in one place

        wiring.wire()
