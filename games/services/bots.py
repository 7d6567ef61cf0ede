"""A bot's move: which bot must act, what it chooses from its own view, and its move stored.

A bot thinks on a loaded state without any lock, then stores its move only if the table has
not moved meanwhile (a re-check of the version under the row lock). The runner (or, inline, the
verb itself) drives these steps one at a time: autoplay.bot_step.
"""

from __future__ import annotations

import enum
import random
from collections.abc import Mapping

from django.db import transaction

from games.models import Game, Seat, is_house_table
from games.services import clocks
from games.services.base import commit_version, load_state, lock
from games.services.move_log import MOVE_FIELDS, action_row, at_locked_row, record, seated


class Step(enum.Enum):
    """What one bot (or stand-in) step did."""

    STORED = "stored"
    IDLE = "idle"
    MOVED_ON = "moved on"


def due_bot(game: Game, state: object, seats: Mapping[int, Seat]) -> Seat | None:
    """The first bot seat that must act now, if any (at a house table, once its deadline came:
    clocks.pace_house_bots)."""
    engine = game.spec.engine
    if game.status != Game.Status.RUNNING or engine.is_over(state):
        return None
    not_before = clocks.now() if is_house_table(game, seats.values()) else None
    for position in engine.active_seats(state):
        seat = seats.get(position)
        if seat is None or not seat.bot or not engine.legal_actions(state, position):
            continue
        if not_before is not None and seat.deadline is not None and seat.deadline > not_before:
            continue
        return seat
    return None


def bot_due(game: Game) -> bool:
    """Whether a bot must act at this game now (it moves after the commit that made it due)."""
    if game.status != Game.Status.RUNNING or game.snapshot is None:
        return False
    return due_bot(game, load_state(game), seated(game)) is not None


def running_with_bots() -> dict[int, int]:
    """The version of every running game with a bot seat, by game id (the runner's sweep wakes
    those that stood still)."""
    bots = Seat.objects.exclude(bot="").values("game_id")
    games = Game.objects.filter(status=Game.Status.RUNNING, pk__in=bots)
    return dict(games.values_list("pk", "version"))


def bot_rng(game: Game) -> random.Random:
    """The bots' random stream for the next move: fixed by the seed and the move number."""
    return random.Random(f"{game.seed}:{game.moves}")


def decide(game: Game, state: object, position: int, level: str) -> Mapping[str, object]:
    """The bot's action, chosen from its own view only."""
    engine = game.spec.engine
    legal = engine.legal_actions(state, position)
    action: Mapping[str, object] = game.spec.bots[level](
        engine.view(state, position), legal, bot_rng(game)
    )
    return action


def bot_move(game: Game, state: object, everyone: list[Seat], seat: Seat) -> Step:
    """The due bot's decision, thought on this loaded state, stored if the table has not moved."""
    assert seat.position is not None
    action = decide(game, state, seat.position, seat.bot)
    if store_bot_move(game, state, everyone, seat, action):
        return Step.STORED
    return Step.MOVED_ON


@transaction.atomic
def store_bot_move(
    loaded: Game, state: object, everyone: list[Seat], seat: Seat, action: Mapping[str, object]
) -> bool:
    """Lock, check the table is still at the version the bot saw, apply and store its move (the
    table handed to this process's sockets on commit, like a person's move)."""
    game = lock(loaded.pk)
    if game.version != loaded.version:
        return False
    assert seat.position is not None
    seats = at_locked_row(everyone, game)
    state = game.spec.engine.apply_action(state, seat.position, action)
    log = [action_row(game, seat.position, action, user=seat.user, bot=seat.bot)]
    moved = record(game, state, log, seats)
    commit_version(game, MOVE_FIELDS, seats=everyone, state=state, moved=moved)
    return True
