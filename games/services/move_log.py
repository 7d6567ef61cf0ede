"""A move written down: the one write path every move takes (make_move), its Action rows, the
snapshot, the clocks wound, the results at the end.

A person's move (play.py), a bot's (bots.py) and a stand-in's (clocks/stand_in.py) are each made
by make_move, in its steps; each mover says only what is its own in them (a Mover). Every move is
stored through `record` (the deal too, from start.py), then its version through
base.commit_version with what `record` says follows (whose turn came, the end).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol, cast

from django.db import transaction
from django.utils import timezone

from accounts.models import User
from accounts.ratings import rate_game
from games.models import Action, Game, Seat
from games.records import archive, stats
from games.services import clocks
from games.services.base import (
    Moved,
    commit_version,
    load_state,
    lock,
    lock_with_seats,
    seats_in_order,
)

MOVE_FIELDS = ("status", "snapshot", "moves", "finished_at")
"""The game row's fields a move changes (saved by commit_version)."""


@dataclass(frozen=True)
class Seen:
    """The table as a bot or a stand-in thought on it, read before any lock: its row, its state
    and its seats (make_move stores the move only if the table is still at that version)."""

    game: Game
    state: object
    everyone: list[Seat]


class Mover(Protocol):
    """Who makes a move, and what is their own in make_move's steps: a person (play.Person), a
    bot (bots.Bot), a stand-in (clocks/stand_in.StandIn)."""

    @property
    def table(self) -> Game | int | Seen:
        """The table moved at: a game (or its id) read under the lock (a person), or as the
        mover saw it before the lock (Seen: a bot, a stand-in)."""

    @property
    def fields(self) -> tuple[str, ...]:
        """The game row's fields the move changes (MOVE_FIELDS, and "notices" if it adds one)."""

    def check(self, game: Game, everyone: list[Seat], state: object) -> Seat | None:
        """The seat that moves, checked on the locked table; None if it no longer may (nothing
        is written), or a ServiceError that says why (a person's refusal)."""

    def apply(self, game: Game, state: object, seat: Seat) -> tuple[object, list[Action]]:
        """The move applied to the state: the new state and its Action rows (not saved yet)."""

    def mark(self, game: Game, seat: Seat) -> None:
        """What the move changes on the seat that made it, before it is recorded (its count of
        stand-ins in a row; a notice)."""

    def settle(self, game: Game, state: object, seats: Mapping[int, Seat], seat: Seat) -> bool:
        """What follows the record before the commit (a seat handed over); whether the worker
        has anything to do after the commit (base.commit_version's `bots`)."""


@dataclass(frozen=True)
class Made:
    """A stored move: the game at its new version, and whether the worker has anything to do
    after it (a person's move: the verb runs the bots inline in inline mode)."""

    game: Game
    worker_due: bool


@transaction.atomic
def make_move(mover: Mover) -> Made | None:
    """Make one move, a person's, a bot's or a stand-in's, in one transaction: the one write path.

    The steps, in order (the mover's own part of each in brackets):
    1. lock: the game row is locked until the commit. A person's table is read under the lock
       (its seats and state: base.lock_with_seats); a bot's or stand-in's was read when it
       thought (Seen), and only the row is locked (base.lock).
    2. check: a bot's or stand-in's table must still be at the version it thought on, else
       nothing is written and None is returned (another process moved first: exactly one of
       them stores). Then the mover's check (a person's: may sit and act, the version or moment
       they chose on, the results they close; a stand-in's: the seat's deadline unchanged). A
       person's refusal is a ServiceError (or IllegalAction): nothing is written.
       A bot's or stand-in's seats are then made to point at the locked row (at_locked_row).
    3. apply: the engine applies the move (a stand-in plays on to the end of the turn); the
       Action rows are made, numbered on from game.moves.
    4. mark: the mover's seat (a person's move clears its stand-ins in a row; a stand-in's adds
       one, and a notice on the table).
    5. record: the Action rows, the snapshot, the clocks wound, the results if it ended (record).
    6. settle: what follows the record under the lock (a stand-in's too many in a row hand the
       seat to a house bot); whether the worker has anything to do after the commit.
    7. commit: base.commit_version saves the row's fields with the next version; once the
       transaction commits, follow_commit hands the table to this process's sockets (`stored`),
       announces the version, tells whose turn came and the game's end, and wakes the worker.

    Then, outside this transaction: a person's verb runs the bots inline in inline mode
    (play.play); a bot's or stand-in's step returns to the runner's loop (autoplay.bot_step).
    """
    table = mover.table
    if isinstance(table, Seen):
        game, everyone, state = lock(table.game.pk), table.everyone, table.state
        if game.version != table.game.version:
            return None
    else:
        game, everyone = lock_with_seats(table)
        state = load_state(game) if game.snapshot is not None else None
    seat = mover.check(game, everyone, state)
    if seat is None:
        return None
    seats = at_locked_row(everyone, game) if isinstance(table, Seen) else by_position(everyone)
    before = state
    state, log = mover.apply(game, state, seat)
    mover.mark(game, seat)
    moved = record(game, state, log, seats, before)
    worker_due = mover.settle(game, state, seats, seat)
    commit_version(game, mover.fields, seats=everyone, state=state, moved=moved, bots=worker_due)
    return Made(game, worker_due)


def seated(game: Game) -> dict[int, Seat]:
    """The seats of a started game by position."""
    return by_position(seats_in_order(game))


def by_position(seats: list[Seat]) -> dict[int, Seat]:
    """These seats (of a started game) by position."""
    return {s.position: s for s in seats if s.position is not None}


def at_locked_row(everyone: list[Seat], game: Game) -> dict[int, Seat]:
    """Seats read before the row was locked (a bot's or stand-in's step, the version re-checked
    since), made to point at the locked row, as stored and handed to the sockets; by position."""
    for seat in everyone:
        seat.game = game
    return by_position(everyone)


def action_row(
    game: Game, position: int, action: Mapping[str, object], *, user: User | None, bot: str
) -> Action:
    """The next Action row of the game (not saved yet)."""
    game.moves += 1
    return Action(game=game, seq=game.moves, seat=position, payload=action, user=user, bot=bot)


def record(
    game: Game,
    state: object,
    log: list[Action],
    seats: Mapping[int, Seat],
    before: object = None,
    clocks_at: datetime | None = None,
) -> Moved:
    """Append the Action rows, save the snapshot, wind the clocks, and the results at the end;
    what follows once committed (whose move came at a turn-based table, the game's end).

    `before`: the state the moves started from (a mover still in the same turn keeps its clock).
    `clocks_at`: when the clocks that start now start (now if not given).
    """
    engine = game.spec.engine
    Action.objects.bulk_create(log)
    game.snapshot = engine.dump(state)
    ended = engine.is_over(state)
    if ended:
        game.status = Game.Status.OVER
        game.finished_at = timezone.now()
        result = engine.result(state)
        write_results(game, result, seats)
        stats.count_finished(game, engine.view(state, None), result, seats)
    at = clocks_at or clocks.now()
    started = clocks.wind(game, state, seats, {a.seat for a in log}, at, before)
    came = tuple(seat.user_id for seat in started) if game.turn_based else ()
    return Moved(turn_came=came, ended=ended)


def write_results(game: Game, result: Mapping[str, object], seats: Mapping[int, Seat]) -> None:
    """Scores, places, winners and breakdowns on the seats; then the ratings move (not at an
    unrated, practice table)."""
    scores = list(cast(list[int], result["scores"]))
    resigned = {p for p, seat in seats.items() if seat.resigned}
    places, winners = archive.placings(
        scores, set(cast(list[int], result.get("winners", []))), resigned
    )
    for position, seat in seats.items():
        seat.score = scores[position]
        seat.winner = position in winners
        seat.place = places[position]
        seat.breakdown = game.spec.seat_results(result, position)
    Seat.objects.bulk_update(list(seats.values()), ["score", "winner", "place", "breakdown"])
    if game.rated:
        rate_game(game.kind, seats.values(), game_id=game.pk, played_at=game.finished_at)
