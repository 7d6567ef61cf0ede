"""A stand-in's move: when a person's time ran out, the house bot plays that pick or turn for
them from their seat's view (stored with bot="stand-in"), and after STAND_INS_BEFORE_BOT in a
row a house bot takes the seat for good (handover.hand_over, reason absent).

Every process may find the same deadline due: the version and deadline re-check under the row
lock lets exactly one of them act on it (move_log.make_move, with what is a stand-in's own:
StandIn).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from django.conf import settings
from django.utils.translation import gettext_noop as N_

from games.models import Action, Game, Seat
from games.services import clocks, move_log
from games.services.base import notice
from games.services.bots import Step, decide
from games.services.handover import ABSENT, hand_over
from games.services.move_log import MOVE_FIELDS, Seen, action_row

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


def store_stand_in(
    loaded: Game, state: object, everyone: list[Seat], seat: Seat, action: Mapping[str, object]
) -> bool:
    """Store the stand-in's move if the table and the seat's deadline are as the stand-in saw
    them (move_log.make_move: the table handed to this process's sockets on commit, like a
    person's move)."""
    return move_log.make_move(StandIn(Seen(loaded, state, everyone), seat, action)) is not None


@dataclass(frozen=True)
class StandIn:
    """A stand-in's move, as make_move makes it: thought on the table it saw (Seen), for a seat
    whose deadline passed; it plays the turn out, counts, and hands the seat over after too many
    in a row."""

    table: Seen
    seat: Seat
    action: Mapping[str, object]
    fields: tuple[str, ...] = (*MOVE_FIELDS, "notices")

    def check(self, game: Game, everyone: list[Seat], state: object) -> Seat | None:
        """The seat, if its deadline is still the one the stand-in saw and no bot took it."""
        fresh = Seat.objects.get(pk=self.seat.pk)
        if fresh.deadline != self.seat.deadline or fresh.bot or fresh.deadline is None:
            return None
        return self.seat

    def apply(self, game: Game, state: object, seat: Seat) -> tuple[object, list[Action]]:
        """The stand-in's action and the rest of the turn (stand_in_turn)."""
        return stand_in_turn(game, state, seat, self.action)

    def mark(self, game: Game, seat: Seat) -> None:
        """One more stand-in in a row on the seat, and a notice on the table."""
        seat.stand_ins += 1
        seat.save(update_fields=["stand_ins"])
        words = N_("Time ran out for %(name)s: a stand-in played %(seat)s's move.")
        notice(game, words, {"name": seat.user.username, "seat": seat.name})

    def settle(self, game: Game, state: object, seats: Mapping[int, Seat], seat: Seat) -> bool:
        """After STAND_INS_BEFORE_BOT in a row, a house bot takes the seat; the runner's loop
        goes on by itself (no `bots_due`)."""
        if seat.stand_ins >= settings.STAND_INS_BEFORE_BOT and game.status == Game.Status.RUNNING:
            hand_over(game, state, seats, seat, ABSENT)
        return False
