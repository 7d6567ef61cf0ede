from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games"

    def ready(self) -> None:
        from games.boards import shared  # noqa: F401  (keeps what this process stores)
        from games.live import (
            runner,  # noqa: F401  (bot moves after the services' commits)
            sessions,  # noqa: F401  (signal handlers that close sockets)
        )
