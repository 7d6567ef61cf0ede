"""A seat's clock wound by the moves: started when the game waits on its person, stopped (the
bank charged) when they move, held through a vacation or a rematch's arrival grace; a house
table's bots paced on the same deadlines; whose time ran out (overdue).

A seat's clock runs while the game waits for its person: a move's own time (`per_move`) and
then its bank. The seat stores when a stand-in plays for it (`deadline`) and the bank it had
when the clock started (`bank`), so the move's own time ends at `deadline - bank`. A move stops
the clock and charges the bank whatever ran past the move's own time.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta

from django.conf import settings

from games.models import Game, Seat, is_house_table
from games.services.clocks import timing
from games.services.clocks.paces import Pace, pace
from games.services.clocks.vacations import away_spans, run_clock


def first_clocks_at(game: Game) -> datetime:
    """When a newly dealt table's first clocks start: at once, or after the arrival grace for a
    rematch (its people are on their way from the finished table)."""
    if game.rematch_of_id is None:
        return timing.now()
    return timing.now() + timedelta(seconds=settings.REMATCH_ARRIVAL_SECONDS)


def clock_starts(seat: Seat, clock: Pace | None) -> datetime | None:
    """When the seat's running clock started (or starts, after a rematch's arrival grace)."""
    ends = move_ends(seat)
    if ends is None or clock is None:
        return None
    return ends - timedelta(seconds=clock.per_move)


def held_until(
    seat: Seat, clock: Pace | None, vacation_ends: datetime | None
) -> tuple[datetime | None, str]:
    """When a page shows the seat's running clock (re)starting, and why it waits: "vacation" (it
    stands still to the vacation's end) or "arrival" (a rematch's arrival grace); else (None, "").

    A vacation moves the stored start on by its length, so a start further ahead than the
    arrival grace is no start a page should count down to (the clock runs now).
    """
    starts = clock_starts(seat, clock)
    if starts is None:
        return None, ""
    if vacation_ends is not None:
        return vacation_ends, "vacation"
    at = timing.now()
    if starts <= at or starts > at + timedelta(seconds=settings.REMATCH_ARRIVAL_SECONDS):
        return None, ""
    return starts, "arrival"


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


def waits_on(game: Game, state: object, position: int) -> bool:
    """Whether the game waits for a move from this position now."""
    engine = game.spec.engine
    return (
        game.status == Game.Status.RUNNING
        and position in engine.active_seats(state)
        and bool(engine.legal_actions(state, position))
    )


def turn_goes_on(game: Game, before: object, state: object, position: int) -> bool:
    """Whether the seat that just moved is still to act in the same turn (a Cakehalla put-back
    or customer after the main action): its clock keeps running."""
    kind = game.spec
    engine = kind.engine
    if not waits_on(game, state, position):
        return False
    return kind.turn(engine.view(before, position)) == kind.turn(engine.view(state, position))


def wind(
    game: Game,
    state: object,
    seats: Mapping[int, Seat],
    movers: set[int],
    at: datetime,
    before: object = None,
) -> list[Seat]:
    """Stop the clocks of the movers and of seats no longer waited on; start the waited-on ones.

    A mover still to act in the same turn as `before` (the state its move started from) keeps
    its clock: the move's own time covers the whole turn. Saves the seats whose clock changed;
    returns those whose clock started (at a turn-based table, their move came). Bots and
    relaxed tables have no clock.
    """
    if is_house_table(game, seats.values()):  # its bots' pace, not a clock
        pace_house_bots(game, state, seats, movers, at)
        return []
    clock = pace(game)
    changed = []
    started = []
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
            started.append(seat)
        if (seat.deadline, seat.bank) != start:
            changed.append(seat)
    if started and clock is not None and clock.turn_based:
        spans = away_spans({s.user_id for s in started}, at)
        for seat in started:
            seconds = clock.per_move + seat.bank
            seat.deadline = run_clock(at, seconds, spans.get(seat.user_id, []))
    if changed:
        Seat.objects.bulk_update(changed, ["deadline", "bank"])
    return started


def pace_house_bots(
    game: Game, state: object, seats: Mapping[int, Seat], movers: set[int], at: datetime
) -> None:
    """A house table's bots move at a watchable pace, on the clocks' own machinery: a bot the
    game waits on gets a deadline HOUSE_TABLE_MOVE_SECONDS on (each move made sets the next),
    before which it does not move (bots.due_bot); the runner wakes the game at it as at any
    deadline, in whichever process, and the version check lets one store the move."""
    changed = []
    for position, seat in seats.items():
        was = seat.deadline
        if not waits_on(game, state, position):
            seat.deadline = None
        elif seat.deadline is None or position in movers:
            seat.deadline = at + timedelta(seconds=settings.HOUSE_TABLE_MOVE_SECONDS)
        if seat.deadline != was:
            changed.append(seat)
    if changed:
        Seat.objects.bulk_update(changed, ["deadline"])


def overdue(seats: Mapping[int, Seat], at: datetime) -> Seat | None:
    """The first person's seat whose time ran out, if any."""
    for seat in seats.values():
        if seat.deadline is not None and not seat.bot and seat.deadline <= at:
            return seat
    return None


def clear(game: Game) -> None:
    """A game that ended without a last move (a moderator's abort): every clock stops."""
    Seat.objects.filter(game=game).exclude(deadline=None).update(deadline=None)
