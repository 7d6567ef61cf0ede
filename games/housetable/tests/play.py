"""A house game played on by its bots as the runner would, the clock moved by hand."""

from __future__ import annotations

from games import services
from games.models import Game
from tests.support.clock import Clock

MOST_STEPS = 2000


def play_on(game: Game, clock: Clock) -> Game:
    """Move the clock past each bot's pace and let the bots move, until the game ends."""
    for _ in range(MOST_STEPS):
        clock.forward(3)
        services.run_bots(game.pk)
        game.refresh_from_db()
        if game.status != Game.Status.RUNNING:
            return game
    raise AssertionError(f"House game {game.pk} did not end.")
