"""Move clocks: each seat's deadline and bank, stored on the seat so a reload or restart keeps them.

A seat's clock runs while the game waits for its person: a move's own time (`per_move`) and
then its bank. The seat stores when a stand-in plays for it (`deadline`) and the bank it had
when the clock started (`bank`), so the move's own time ends at `deadline - bank`. A move stops
the clock and charges the bank whatever ran past the move's own time.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.utils import timezone

from games.models import Game, Seat


@dataclass(frozen=True)
class Pace:
    """Seconds for each move and the bank for the whole game."""

    per_move: float
    bank: float


PACES: dict[str, tuple[float, float]] = {"normal": (60, 120), "fast": (20, 60)}


def now() -> datetime:
    """The clocks' time (tests move it forward by patching this)."""
    return timezone.now()


def pace(game: Game) -> Pace | None:
    """The table's clock, or None at a relaxed table (PACE_SCALE shortens it for tests)."""
    seconds = PACES.get(game.pace)
    if seconds is None:
        return None
    scale = settings.PACE_SCALE
    return Pace(seconds[0] * scale, seconds[1] * scale)


def first_clocks_at(game: Game) -> datetime:
    """When a newly dealt table's first clocks start: at once, or after the arrival grace for a
    rematch (its people are on their way from the finished table)."""
    if game.rematch_of_id is None:
        return now()
    return now() + timedelta(seconds=settings.REMATCH_ARRIVAL_SECONDS)


def clock_starts(seat: Seat, clock: Pace | None) -> datetime | None:
    """When the seat's running clock started (or starts, after a rematch's arrival grace)."""
    ends = move_ends(seat)
    if ends is None or clock is None:
        return None
    return ends - timedelta(seconds=clock.per_move)


def move_ends(seat: Seat) -> datetime | None:
    """When the running move's own time ends and the bank starts to drain."""
    if seat.deadline is None:
        return None
    return seat.deadline - timedelta(seconds=seat.bank)


def stop(seat: Seat, at: datetime) -> None:
    """Stop the seat's clock, charging the bank the time past the move's own time."""
    ends = move_ends(seat)
    if ends is None:
        return
    over = max(0.0, (at - ends).total_seconds())
    seat.bank = max(0.0, seat.bank - over)
    seat.deadline = None


def waits_on(game: Game, state: Any, position: int) -> bool:
    """Whether the game waits for a move from this position now."""
    engine = game.spec.engine
    return (
        game.status == Game.Status.RUNNING
        and position in engine.active_seats(state)
        and bool(engine.legal_actions(state, position))
    )


def turn_goes_on(game: Game, before: Any, state: Any, position: int) -> bool:
    """Whether the seat that just moved is still to act in the same turn (a Cakehalla put-back
    or customer after the main action): its clock keeps running."""
    kind = game.spec
    engine = kind.engine
    if not waits_on(game, state, position):
        return False
    return kind.turn(engine.view(before, position)) == kind.turn(engine.view(state, position))


def wind(
    game: Game,
    state: Any,
    seats: Mapping[int, Seat],
    movers: set[int],
    at: datetime,
    before: Any = None,
) -> None:
    """Stop the clocks of the movers and of seats no longer waited on; start the waited-on ones.

    A mover still to act in the same turn as `before` (the state its move started from) keeps
    its clock: the move's own time covers the whole turn. Saves the seats whose clock changed.
    Bots and relaxed tables have no clock.
    """
    clock = pace(game)
    changed = []
    for position, seat in seats.items():
        start = (seat.deadline, seat.bank)
        clocked = clock is not None and not seat.bot and waits_on(game, state, position)
        moved_on = position in movers and not (
            clocked and before is not None and turn_goes_on(game, before, state, position)
        )
        if seat.deadline is not None and (moved_on or not clocked):
            stop(seat, at)
        if clocked and seat.deadline is None:
            assert clock is not None
            seat.deadline = at + timedelta(seconds=clock.per_move + seat.bank)
        if (seat.deadline, seat.bank) != start:
            changed.append(seat)
    if changed:
        Seat.objects.bulk_update(changed, ["deadline", "bank"])


def overdue(seats: Mapping[int, Seat], at: datetime) -> Seat | None:
    """The first person's seat whose time ran out, if any."""
    for seat in seats.values():
        if seat.deadline is not None and not seat.bot and seat.deadline <= at:
            return seat
    return None


def clear(game: Game) -> None:
    """A game that ended without a last move (a moderator's abort): every clock stops."""
    Seat.objects.filter(game=game).exclude(deadline=None).update(deadline=None)
