from django.apps import AppConfig
from django.conf import settings


class TournamentsConfig(AppConfig):
    name = "games.tournaments"
    label = "tournaments"
    verbose_name = "Tournaments"

    def ready(self) -> None:
        from games.live import runner
        from games.services import game_ended
        from games.tournaments import services, sweep

        # A tournament table that ends is recorded at once; the sweep records any whose signal
        # was lost (a restart), and the record's flag under the row lock lets only one count.
        game_ended.connect(services.game_ended_here, dispatch_uid="tournaments-game-ended")
        runner.every(settings.TOURNAMENT_SWEEP_SECONDS, sweep.sweep)
