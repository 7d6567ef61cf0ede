"""Quick pairing as a Django app: its sweep runs every second in each serving process."""

from django.apps import AppConfig


class PairingConfig(AppConfig):
    name = "games.pairing"
    label = "pairing"
    verbose_name = "Quick pairing"

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_out

        from games.live import runner
        from games.pairing import services, sweep

        # Pairs the people waiting, and lets go of those whose page went (games/live/runner.py).
        runner.every(sweep.EVERY_SECONDS, sweep.sweep)
        # Logging out takes the person out of the pool (the session's sockets close too).
        user_logged_out.connect(services.stop_on_logout, dispatch_uid="pairing-logout")
