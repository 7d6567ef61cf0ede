"""A bot's move: which bot must act, what it chooses from its own view, and its move stored.

A bot thinks on a loaded state without any lock, then stores its move only if the table has
not moved meanwhile (a re-check of the version under the row lock: move_log.make_move, with what
is a bot's own: Bot). The runner (or, inline, the
verb itself) drives these steps one at a time: autoplay.bot_step.
"""

from __future__ import annotations

import enum
import random
from collections.abc import Mapping
from dataclasses import dataclass

from django.conf import settings

from games import thinking
from games.models import Action, Game, Seat, is_house_table
from games.records import archive
from games.services import clocks, move_log
from games.services.base import load_state
from games.services.move_log import MOVE_FIELDS, Seen, action_row, seated


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
    """The bot's action, chosen from its own view only. A searching bot (a master) thinks in the
    thinking pool (games/thinking.py: another process, at most THINKING_PROCESSES at once), for
    MASTER_BOT_SECONDS of CPU, while this thread (the runner's, never the loop's) waits."""
    spec = game.spec
    legal = spec.engine.legal_actions(state, position)
    view = spec.engine.view(state, position)
    seconds = settings.MASTER_BOT_SECONDS
    if level in spec.remembering:
        bot = spec.remembering[level](seconds, earlier_views(game, position))
    elif level in spec.searching:
        bot = spec.searching[level](seconds)
    else:
        action: Mapping[str, object] = spec.bots[level](view, legal, bot_rng(game))
        return action
    if len(legal) == 1:
        only: Mapping[str, object] = legal[0]  # nothing to weigh
        return only
    searched: Mapping[str, object] = thinking.think(bot, view, legal, bot_rng(game))
    return searched


def earlier_views(game: Game, position: int) -> list[object]:
    """What this seat saw after each stored move of the game, oldest first: its own views only,
    rebuilt from the setup and the Action rows (none if today's rules cannot rebuild them)."""
    engine = game.spec.engine
    moves = game.actions.order_by("seq").values_list("seat", "payload")
    try:
        first = archive.first_state(game)
        return [engine.view(state, position) for state in archive.played(engine, first, moves)]
    except archive.CannotRebuild:
        return []


def bot_move(game: Game, state: object, everyone: list[Seat], seat: Seat) -> Step:
    """The due bot's decision, thought on this loaded state, stored if the table has not moved."""
    assert seat.position is not None
    action = decide(game, state, seat.position, seat.bot)
    if store_bot_move(game, state, everyone, seat, action):
        return Step.STORED
    return Step.MOVED_ON


def store_bot_move(
    loaded: Game, state: object, everyone: list[Seat], seat: Seat, action: Mapping[str, object]
) -> bool:
    """Store the bot's move if the table is still at the version the bot saw (move_log.make_move:
    the table handed to this process's sockets on commit, like a person's move)."""
    return move_log.make_move(Bot(Seen(loaded, state, everyone), seat, action)) is not None


@dataclass(frozen=True)
class Bot:
    """A bot's move, as make_move makes it: thought on the table it saw (Seen), its one action."""

    table: Seen
    seat: Seat
    action: Mapping[str, object]
    fields: tuple[str, ...] = MOVE_FIELDS

    def check(self, game: Game, everyone: list[Seat], state: object) -> Seat:
        """Nothing beyond the version make_move checks: the bot's seat."""
        return self.seat

    def apply(self, game: Game, state: object, seat: Seat) -> tuple[object, list[Action]]:
        """The bot's action applied, and its row."""
        assert seat.position is not None
        state = game.spec.engine.apply_action(state, seat.position, self.action)
        return state, [action_row(game, seat.position, self.action, user=seat.user, bot=seat.bot)]

    def mark(self, game: Game, seat: Seat) -> None:
        """A bot's seat keeps no count."""

    def settle(self, game: Game, state: object, seats: Mapping[int, Seat], seat: Seat) -> bool:
        """Nothing more; the runner's loop looks for the next bot itself (no `bots_due`)."""
        return False
