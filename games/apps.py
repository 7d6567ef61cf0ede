from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games"

    def ready(self) -> None:
        from games import sockets  # noqa: F401  (signal handlers that close sockets)
        from games.boards import shared  # noqa: F401  (keeps what this process stores)
