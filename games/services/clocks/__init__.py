"""Move clocks: each seat's deadline and bank, stored on the seat so a reload or restart keeps them.

The clocks' home. This module: the arithmetic (winding, stopping, paces, vacations, words).
deadlines.py: what fires a deadline (the queries behind the runner's timers and sweep);
stand_in.py: the stand-in's move once a deadline passed, and the hand-over after too many.

A seat's clock runs while the game waits for its person: a move's own time (`per_move`) and
then its bank. The seat stores when a stand-in plays for it (`deadline`) and the bank it had
when the clock started (`bank`), so the move's own time ends at `deadline - bank`. A move stops
the clock and charges the bank whatever ran past the move's own time.

Turn-based paces give days a move. There a person's vacation (accounts.models.Vacation) stands
their clocks still: a clock that starts during one starts at its end, and a deadline after its
start moves on by the part of it still to come (games/vacation/services.py pushes the running ones
when a vacation is taken).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import OuterRef, Subquery
from django.utils import timezone

from accounts.models import User, Vacation
from games.models import TURN_BASED, Game, Seat, is_house_table

DAY = 86400.0
HOUR = 3600.0


@dataclass(frozen=True)
class Pace:
    """Seconds for each move and the bank for the whole game."""

    per_move: float
    bank: float
    turn_based: bool = False

    def words(self) -> str:
        """The clock in words ("1 d a move plus a 2 d bank")."""
        return f"{span_words(self.per_move)} a move plus a {span_words(self.bank)} bank"


PACES: dict[str, tuple[float, float]] = {
    "normal": (60, 120),
    "fast": (20, 60),
    "day1": (DAY, 2 * DAY),
    "day3": (3 * DAY, 3 * DAY),
    "day7": (7 * DAY, 7 * DAY),
}


def span_words(seconds: float) -> str:
    """A span of time as a clock says it: "45 s", "12 min", "5 h 20 min", "2 d 3 h".

    Rounded up, as a countdown is (it never says less time than is left): to the second, and to
    the minute from 10 minutes on; the units are taken from the rounded span, so 23 h 59 min 59 s
    is "1 d", never "24 h" or "0 h". From an hour on it says what static/js/clock.js says.
    """
    whole = max(0, -(-round(seconds * 1000) // 1000))  # whole seconds, up (to the ms first)
    if whole < 600:
        return f"{whole} s"
    minutes = -(-whole // 60)
    if minutes < 60:
        return f"{minutes} min"
    days, rest = divmod(minutes, 24 * 60)
    hours, minutes = divmod(rest, 60)
    if days:
        return f"{days} d {hours} h" if hours else f"{days} d"
    return f"{hours} h {minutes} min" if minutes else f"{hours} h"


def now() -> datetime:
    """The clocks' time (tests move it forward by patching this)."""
    return timezone.now()


def pace(game: Game) -> Pace | None:
    """The table's clock, or None at a relaxed table (PACE_SCALE shortens it for tests)."""
    seconds = PACES.get(game.pace)
    if seconds is None:
        return None
    scale = settings.PACE_SCALE
    return Pace(seconds[0] * scale, seconds[1] * scale, game.pace in TURN_BASED)


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
    at = now()
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


Span = tuple[datetime, datetime]


def away_spans(user_ids: set[int], at: datetime) -> dict[int, list[Span]]:
    """Each person's vacations not over at that time, in order."""
    rows = Vacation.objects.filter(user_id__in=user_ids, ends_at__gt=at).order_by("starts_at")
    spans: dict[int, list[Span]] = {}
    for user_id, starts, ends in rows.values_list("user_id", "starts_at", "ends_at"):
        spans.setdefault(user_id, []).append((starts, ends))
    return spans


def away_until(user_ids: set[int]) -> dict[int, str]:
    """The people on vacation now, each with the day it ends ("12 Dec")."""
    return {u: day_words(ends) for u, ends in vacations_now(user_ids).items()}


def vacations_now(user_ids: set[int]) -> dict[int, datetime]:
    """The people on vacation now, each with when it ends."""
    at = now()
    rows = Vacation.objects.filter(user_id__in=user_ids, starts_at__lte=at, ends_at__gt=at)
    return dict(rows.values_list("user_id", "ends_at"))


@dataclass(frozen=True)
class Whereabouts:
    """What a turn-based table's rivals see of a person besides presence: a vacation's end, and
    when they last opened or closed a table page's socket (None: none, never)."""

    away_until: datetime | None
    last_seen: datetime | None


NOWHERE = Whereabouts(None, None)


def whereabouts(user_ids: set[int]) -> dict[int, Whereabouts]:
    """Each of these people's whereabouts now (one query)."""
    at = now()
    vacation = Vacation.objects.filter(user=OuterRef("pk"), starts_at__lte=at, ends_at__gt=at)
    people = User.objects.filter(pk__in=user_ids).annotate(
        away_until=Subquery(vacation.order_by("-ends_at").values("ends_at")[:1])
    )
    rows = people.values_list("pk", "away_until", "last_seen")
    return {pk: Whereabouts(until, seen) for pk, until, seen in rows}


def day_words(at: datetime) -> str:
    """A day as a seat's tag says it ("12 Dec, 18:00 UTC")."""
    return f"{at.day} {at:%b, %H:%M} UTC"


def run_clock(at: datetime, seconds: float, spans: list[Span]) -> datetime:
    """When a clock started at `at` with that many seconds runs out, standing still through the
    spans (in order, not overlapping)."""
    now, left = at, timedelta(seconds=seconds)
    for starts, ends in spans:
        if ends <= now:
            continue
        starts = max(starts, now)
        if now + left <= starts:
            break
        left -= starts - now
        now = ends
    return now + left


def paused(deadline: datetime, at: datetime, starts: datetime, ends: datetime) -> datetime:
    """A clock running at `at` towards `deadline`, stood still by a new span (starts, ends)."""
    starts = max(starts, at)
    if deadline <= starts or ends <= starts:
        return deadline
    return deadline + (ends - starts)


def overdue(seats: Mapping[int, Seat], at: datetime) -> Seat | None:
    """The first person's seat whose time ran out, if any."""
    for seat in seats.values():
        if seat.deadline is not None and not seat.bot and seat.deadline <= at:
            return seat
    return None


def clear(game: Game) -> None:
    """A game that ended without a last move (a moderator's abort): every clock stops."""
    Seat.objects.filter(game=game).exclude(deadline=None).update(deadline=None)
