"""The deal: a table's seats drawn from its seed and its game dealt, the moment a game begins (the
host's start, a rematch, the site's own tables: services/seating.py); its people are told once it
commits (events.game_started)."""

from __future__ import annotations

from collections.abc import Mapping

from django.db import transaction
from django.utils import timezone

from games import events
from games.engines.rng import seed_state, shuffled
from games.models import Game, Seat
from games.services import clocks
from games.services.base import commit_version
from games.services.move_log import record

SEATING_SALT = 0x5EA7_ED_B4_CE_0001


def draw_positions(seed: int, count: int) -> list[int]:
    """The seat position of each joined player, drawn from the game's seed.

    A salted stream, so the public seating tells nothing about the engine's own draws.
    """
    order, _ = shuffled(list(range(count)), seed_state(seed ^ SEATING_SALT))
    return order


def deal(game: Game, seats: list[Seat], setup: Mapping[str, object] | None = None) -> None:
    """Draw the seats and deal the locked game (check_start, or the yeses of a rematch); from
    `setup` when given (a tutorial's fixed deal), else as the seed deals."""
    draw_seats(game, seats)
    Seat.objects.bulk_update(seats, ["position", "bank"])
    deal_drawn(game, seats, setup)


def draw_seats(game: Game, seats: list[Seat]) -> None:
    """Each seat's position, drawn from the game's seed, and its clock's bank (not saved)."""
    clock = clocks.pace(game)
    for seat, position in zip(seats, draw_positions(game.seed, len(seats)), strict=True):
        seat.position = position
        seat.bank = clock.bank if clock is not None else 0


def deal_drawn(game: Game, seats: list[Seat], setup: Mapping[str, object] | None = None) -> None:
    """Deal the locked game whose seats are drawn and saved (deal)."""
    engine = game.spec.engine
    options = dict(game.options)
    dealt = setup if setup is not None else engine.deal(len(seats), seed=game.seed, options=options)
    game.setup = dict(dealt)
    game.rules_version = engine.RULES_VERSION
    state = engine.new_game(len(seats), seed=game.seed, options=options, setup=game.setup)
    game.status = Game.Status.RUNNING
    game.started_at = timezone.now()
    seated = {s.position: s for s in seats if s.position is not None}
    moved = record(game, state, [], seated, clocks_at=clocks.first_clocks_at(game))
    fields = ["status", "started_at", "setup", "rules_version", "snapshot", "moves"]
    commit_version(game, [*fields, "finished_at"], moved=moved, bots=True)
    game_id, people = game.pk, [s.user_id for s in seats if not s.bot]  # no house bot
    transaction.on_commit(lambda: events.game_started.tell(game_id, people))
