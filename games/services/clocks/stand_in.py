"""A stand-in's move: when a person's time ran out, the house bot plays that pick or turn for
them from their seat's view (stored with bot="stand-in"), and after STAND_INS_BEFORE_BOT in a
row a house bot takes the seat for good (handover.hand_over, reason absent).

Every process may find the same deadline due: the version and deadline re-check under the row
lock lets exactly one of them act on it.
"""

from __future__ import annotations

from collections.abc import Mapping

from django.conf import settings
from django.db import transaction

from games.models import Action, Game, Seat
from games.services import clocks
from games.services.base import commit_version, lock, notice
from games.services.bots import Step, decide
from games.services.handover import ABSENT, hand_over
from games.services.move_log import MOVE_FIELDS, action_row, at_locked_row, record

STAND_IN = "stand-in"
"""The Action rows' bot name for a move a stand-in made when a person's time ran out."""

MOST_STEPS = 8


def stand_in_step(game: Game, state: object, everyone: list[Seat]) -> Step:
    """If a person's time ran out, a stand-in (the house bot, from that seat's view) moves."""
    seats = {s.position: s for s in everyone if s.position is not None}
    seat = clocks.overdue(seats, clocks.now())
    if seat is None:
        return Step.IDLE
    assert seat.position is not None
    action = decide(game, state, seat.position, game.spec.house_bot)
    if store_stand_in(game, state, everyone, seat, action):
        return Step.STORED
    return Step.MOVED_ON


def stand_in_turn(
    game: Game, state: object, seat: Seat, action: Mapping[str, object]
) -> tuple[object, list[Action]]:
    """The stand-in's action, and the rest of that turn (a Cakehalla put-back or customer).

    It stops at the end of the seat's turn or pick: when the game no longer waits on the seat,
    or the seat's turn moved on (kind.turn: a Midnight Bakery reveal dealt a new pick).
    """
    kind = game.spec
    engine = kind.engine
    assert seat.position is not None
    position = seat.position
    before = state
    log = []
    for _ in range(MOST_STEPS):
        state = engine.apply_action(state, position, action)
        log.append(action_row(game, position, action, user=seat.user, bot=STAND_IN))
        if engine.is_over(state) or not clocks.turn_goes_on(game, before, state, position):
            break
        action = decide(game, state, position, kind.house_bot)
    return state, log


@transaction.atomic
def store_stand_in(
    loaded: Game, state: object, everyone: list[Seat], seat: Seat, action: Mapping[str, object]
) -> bool:
    """Lock, check the table and the seat's deadline are as the stand-in saw them, and move (the
    table handed to this process's sockets on commit, like a person's move)."""
    game = lock(loaded.pk)
    if game.version != loaded.version:
        return False
    fresh = Seat.objects.get(pk=seat.pk)
    if fresh.deadline != seat.deadline or fresh.bot or fresh.deadline is None:
        return False
    assert seat.position is not None
    seats = at_locked_row(everyone, game)
    before = state
    state, log = stand_in_turn(game, state, seat, action)
    seat.stand_ins += 1
    seat.save(update_fields=["stand_ins"])
    notice(game, f"Time ran out for {seat.user.username}: a stand-in played {seat.name}'s move.")
    moved = record(game, state, log, seats, before)
    if seat.stand_ins >= settings.STAND_INS_BEFORE_BOT and game.status == Game.Status.RUNNING:
        hand_over(game, state, seats, seat, ABSENT)
    fields = (*MOVE_FIELDS, "notices")
    commit_version(game, fields, seats=everyone, state=state, moved=moved)
    return True
