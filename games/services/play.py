"""A person's move: checked against the table as stored, applied, recorded and committed in one
transaction (move_log.make_move, with what is a person's own: Person); and closing results, and a
game's replay.

The bots' moves: bots.py (driven by autoplay.py); a stand-in's when a clock ran out:
clocks/stand_in.py; resigning and seats handed to a bot: leaving.py and handover.py. Every move,
a person's, a bot's and a stand-in's, is made by move_log.make_move.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from django.db import transaction
from django.utils.translation import gettext

from accounts.models import User
from games.engines import IllegalAction
from games.kinds.refusals import told
from games.models import Action, Game, Seat
from games.records import archive
from games.services import move_log
from games.services.autoplay import inline_bots
from games.services.base import (
    NotAllowed,
    ServiceError,
    StaleVersion,
    closed_reason,
    commit_version,
    load_state,
    lock_with_seats,
)
from games.services.bots import due_bot
from games.services.handover import handed_over_why
from games.services.move_log import MOVE_FIELDS, action_row

# --- play ---------------------------------------------------------------------------------


def check_play(
    game: Game,
    user: User,
    version: int | None,
    moment: str | None,
    state: object,
    seats: list[Seat],
) -> Seat:
    """The seat among `seats` (the game's) that may act now, or a ServiceError.

    A page that showed an older version is stale, unless the game says the seat's moment has
    not changed since (in Midnight Bakery a rival locking a pick does not change your batch).
    """
    seat = next((s for s in seats if s.user_id == user.pk), None)
    if seat is None:
        raise NotAllowed(gettext("You do not sit at this game."))
    if game.status == Game.Status.OPEN:
        raise ServiceError(gettext("This game has not started yet."))
    if game.status != Game.Status.RUNNING or seat.position is None:
        raise StaleVersion(closed_reason(game))
    if seat.resigned:
        raise NotAllowed(
            gettext("%(why)s A house bot plays your seat.") % {"why": handed_over_why(game, seat)}
        )
    if version is not None and version != game.version:
        kind = game.spec
        same_moment = (
            moment is not None
            and state is not None
            and moment == kind.moment(kind.engine.view(state, seat.position))
        )
        if not same_moment:
            raise StaleVersion(
                gettext("The table moved on while you chose; look again and choose.")
            )
    return seat


def play(
    game: Game | int,
    user: User,
    action: Mapping[str, object],
    version: int | None,
    moment: str | None = None,
    seen: int | None = None,
) -> Game:
    """Apply a player's action and store it, in one transaction (move_log.make_move); the bots
    answer after the commit. IllegalAction or a ServiceError if refused. `seen`: the results the
    page showed beside the move, which the move puts away (see close_with_move)."""
    made = move_log.make_move(Person(game, user, action, version, moment, seen))
    assert made is not None  # a person's move is made or refused, never passed over
    if made.worker_due:
        inline_bots(made.game.pk)
    return made.game


@dataclass(frozen=True)
class Person:
    """A person's move, as make_move makes it: their table read under the lock, checked against
    what their page showed (check_play), their seat's stand-ins in a row cleared."""

    table: Game | int
    user: User
    action: Mapping[str, object]
    version: int | None
    moment: str | None
    seen: int | None
    fields: tuple[str, ...] = MOVE_FIELDS

    def check(self, game: Game, everyone: list[Seat], state: object) -> Seat:
        """check_play; an action that is no action refused; the results `seen` put away."""
        seat = check_play(game, self.user, self.version, self.moment, state, everyone)
        if not isinstance(self.action, dict):
            raise IllegalAction(gettext("That is not an action."))
        close_with_move(game, seat, state, self.seen)
        return seat

    def apply(self, game: Game, state: object, seat: Seat) -> tuple[object, list[Action]]:
        """The person's action applied, and its row."""
        assert seat.position is not None
        try:
            state = game.spec.engine.apply_action(state, seat.position, self.action)
        except IllegalAction as refused:  # the engine's English, said in the person's language
            raise IllegalAction(told(refused)) from refused
        return state, [action_row(game, seat.position, self.action, user=self.user, bot="")]

    def mark(self, game: Game, seat: Seat) -> None:
        """A person's move ends their stand-ins in a row."""
        if seat.stand_ins:
            seat.stand_ins = 0
            seat.save(update_fields=["stand_ins"])

    def settle(self, game: Game, state: object, seats: Mapping[int, Seat], seat: Seat) -> bool:
        """Nothing more to write; whether the worker has anything to do (left_for_worker)."""
        return left_for_worker(game, state, seats)


def left_for_worker(game: Game, state: object, seats: Mapping[int, Seat]) -> bool:
    """Whether the worker has anything to do after this move: a bot to act now, or a clock
    running (its drive sets the timer for the deadline). After a move at a table of people with
    no clock, waking it would only read the table back to find nothing due."""
    if any(seat.deadline is not None for seat in seats.values()):
        return True
    return due_bot(game, state, seats) is not None


# --- per-seat screen state ----------------------------------------------------------------


def close_with_move(game: Game, seat: Seat, state: object, seen: int | None) -> None:
    """A move made while a round's results were open puts them away up to `seen` (a Midnight
    Bakery pick made beside the bake's results: the pick's time runs from the bake, so the
    results never stand between a person and their pick). Checked before the move, so a count
    past the results out refuses the move too; read only when it would change something."""
    if seen is None or seen <= seat.results_seen:
        return
    assert seat.position is not None
    if state is None or seen > game.spec.results_count(game.spec.engine.view(state, seat.position)):
        raise ServiceError(gettext("Those results are not out yet."))
    seat.results_seen = seen
    seat.save(update_fields=["results_seen"])


def check_close_results(game: Game, user: User, seen: int, seats: list[Seat]) -> Seat:
    """The seat among the table's `seats` that may close results up to `seen`, or a
    ServiceError."""
    seat = next((s for s in seats if s.user_id == user.pk), None)
    if seat is None or seat.position is None or game.snapshot is None:
        raise NotAllowed(gettext("You do not sit at this game."))
    view = game.spec.engine.view(load_state(game), seat.position)
    if not 0 <= seen <= game.spec.results_count(view):
        raise ServiceError(gettext("Those results are not out yet."))
    return seat


@transaction.atomic
def close_results(game: Game | int, user: User, seen: int) -> Game | None:
    """Record that a seated player closed the results up to the given count, in all their tabs:
    the game at the new version it made (like every change to a table), or None if they were
    closed already (nothing changed, nothing is announced)."""
    game, seats = lock_with_seats(game)
    seat = check_close_results(game, user, seen, seats)
    if seat.results_seen >= seen:
        return None
    seat.results_seen = seen
    seat.save(update_fields=["results_seen"])
    commit_version(game, [])
    return game


# --- replay -------------------------------------------------------------------------------


def replay(game: Game) -> object:
    """The state rebuilt from the stored setup and the Action rows alone (never the snapshot);
    archive.CannotRebuild if today's engine cannot play it again."""
    moves = game.actions.order_by("seq").values_list("seat", "payload")
    return archive.last_state(game.spec.engine, archive.first_state(game), moves)
