"""What runs every second in each serving process (games.live.runner.every): the pairing pass."""

from __future__ import annotations

from games.pairing import services

EVERY_SECONDS = 1.0


def sweep() -> None:
    """Pair the people waiting in every pool, and let go of those whose page went quiet."""
    services.pass_all()
