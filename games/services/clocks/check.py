"""A running table's clocks checked as stored (`manage.py verify_games`, after a restore): what
the site would meet when it resumes the table.

`wind` keeps one rule after every change: at a table with a clock, a person's seat has a
deadline exactly while the game waits on a move from it (bots and relaxed tables have none); a
house table's bots have one while the game waits on them. Both ways matter: a waited-on person
without a deadline holds the table forever, a deadline on a seat not waited on sends a stand-in
to a seat with no move. A deadline is never further off than a whole clock (the move's time and
the bank left) from now, plus a rematch's arrival grace and, at a turn-based table, the person's
vacations to come; a bank is between none and the pace's whole bank.

A deadline already past is no fault: a backup restored later finds its clocks ran out, and the
runner's sweep lets the stand-ins move once the site starts (`ran_out` counts them).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime, timedelta

from django.conf import settings

from games.models import Game, Seat, is_house_table
from games.services import clocks

SLACK = timedelta(seconds=1)
"""Rounding a deadline may carry (a stored datetime, seconds as floats)."""


def clock_problems(game: Game, state: object, seats: Iterable[Seat], at: datetime) -> list[str]:
    """How the running table's stored clocks break the rules above at `at` (empty if none).
    `state` is the game as rebuilt from its actions; the seats carry their people."""
    placed = {s.position: s for s in seats if s.position is not None}
    if is_house_table(game, placed.values()):
        return house_table_problems(game, state, placed, at)
    clock = clocks.pace(game)
    spans = vacations_to_come(game, placed, at)
    problems = []
    for position, seat in sorted(placed.items()):
        who = f"Seat {position} ({seat.user.username})"
        clocked = clock is not None and not seat.bot and clocks.waits_on(game, state, position)
        if clocked and seat.deadline is None:
            problems.append(f"{who}: the game waits on its move, but its clock is not running.")
        if not clocked and seat.deadline is not None:
            problems.append(f"{who}: its clock runs, but the game waits on no move of it.")
        if clock is None:
            continue
        if not 0 <= seat.bank <= clock.bank:
            problems.append(f"{who}: a bank of {seat.bank:g} s, outside 0 to {clock.bank:g} s.")
        if seat.deadline is not None:
            grace = timedelta(seconds=settings.REMATCH_ARRIVAL_SECONDS)
            whole = clock.per_move + min(max(seat.bank, 0.0), clock.bank)
            latest = clocks.run_clock(at + grace, whole, spans.get(seat.user_id, []))
            if seat.deadline > latest + SLACK:
                problems.append(
                    f"{who}: its deadline ({seat.deadline.isoformat()}) is further off than its "
                    f"clock allows ({clocks.span_words(whole)} from now)."
                )
    return problems


def vacations_to_come(
    game: Game, placed: Mapping[int, Seat], at: datetime
) -> dict[int, list[clocks.Span]]:
    """The seated people's vacations not over at `at`, at a turn-based table (they stand its
    clocks still); none at a live one."""
    if not game.turn_based:
        return {}
    return clocks.away_spans({s.user_id for s in placed.values() if not s.bot}, at)


def house_table_problems(
    game: Game, state: object, placed: Mapping[int, Seat], at: datetime
) -> list[str]:
    """A house table's bots: a deadline exactly on the seats the game waits on, never further off
    than a house move (clocks.pace_house_bots)."""
    latest = at + timedelta(seconds=settings.HOUSE_TABLE_MOVE_SECONDS) + SLACK
    problems = []
    for position, seat in sorted(placed.items()):
        who = f"Seat {position} ({seat.user.username})"
        waited_on = clocks.waits_on(game, state, position)
        if waited_on and seat.deadline is None:
            problems.append(f"{who}: the house table waits on its bot, which has no move time.")
        if not waited_on and seat.deadline is not None:
            problems.append(f"{who}: its bot has a move time, but the game waits on no move of it.")
        if seat.deadline is not None and seat.deadline > latest:
            problems.append(f"{who}: its bot's move time is further off than a house move.")
    return problems


def ran_out(seats: Iterable[Seat], at: datetime) -> int:
    """How many people's clocks ran out by `at` (the stand-ins move when the site runs)."""
    return sum(1 for s in seats if s.deadline is not None and not s.bot and s.deadline <= at)
