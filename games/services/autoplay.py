"""The moves nobody at the table makes by hand: a bot's, or a stand-in's when a clock ran out.

Each serving process's runner (games/live/runner.py) drives a game by `bot_step`, one decision in
one short transaction at a time, once a commit sent `bots_due` (base.commit_version) or a
deadline came. Commands and tests make them inline instead (BOT_MOVES = "inline"): the verb that
left a bot to act calls `inline_bots` once its transaction is over.
"""

from __future__ import annotations

from django.conf import settings

from games.models import Game
from games.services.base import load_state, seats_in_order
from games.services.bots import Step, bot_move, due_bot
from games.services.clocks.stand_in import stand_in_step
from games.services.move_log import by_position


def bot_step(game_id: int) -> Step:
    """One bot (or stand-in) decision: think on a loaded state, then store it if the table has
    not moved."""
    game = Game.objects.get(pk=game_id)
    if game.status != Game.Status.RUNNING or game.snapshot is None:
        return Step.IDLE
    state = load_state(game)
    everyone = seats_in_order(game)
    seat = due_bot(game, state, by_position(everyone))
    if seat is None:
        return stand_in_step(game, state, everyone)
    return bot_move(game, state, everyone, seat)


def run_bots(game_id: int) -> int:
    """Bot steps until no bot must act; how many moves were stored."""
    stored = 0
    while (step := bot_step(game_id)) is not Step.IDLE:
        stored += step is Step.STORED
    return stored


def inline_bots(game_id: int) -> None:
    """Called by a verb once its transaction is over. Inline (BOT_MOVES = "inline": tests,
    commands): the bots that must act answer now, in this thread, each move in its own
    transaction. Otherwise nothing here: the commit sent `bots_due`, and this process's runner
    makes them off the request."""
    if settings.BOT_MOVES == "inline":
        run_bots(game_id)
