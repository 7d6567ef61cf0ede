"""A person away from their turn-based tables (a vacation: games/vacation/): the deadlines of
their running turn-based seats retimed, and each such table given a new version so rivals' pages
say it. The clocks read the vacations themselves (clocks.wind); this is the one write a feature
makes to them, through commit_version like every other change to a table."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from accounts.models import User
from games.models import TURN_BASED, Game, Seat
from games.services.base import commit_version, lock


def retime_turn_based(user: User, retime: Callable[[datetime], datetime]) -> int:
    """In the caller's transaction, the person's row locked first: each of their own seats at a
    running turn-based table (older table first, its row locked) gets `retime` of its running
    deadline (a seat with none keeps none), and the table a new version; how many tables."""
    running = Seat.objects.filter(
        user=user, bot="", game__status=Game.Status.RUNNING, game__pace__in=TURN_BASED
    )
    told = 0
    for game_id in sorted(set(running.values_list("game_id", flat=True))):
        game = lock(game_id)
        seat = Seat.objects.get(game=game, user=user)
        if seat.bot:
            continue  # handed to a bot since it was read
        if seat.deadline is not None:
            new = retime(seat.deadline)
            if new != seat.deadline:
                seat.deadline = new
                seat.save(update_fields=["deadline"])
        commit_version(game, [])
        told += 1
    return told
