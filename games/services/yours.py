"""Your games: every table a person sits at that is still in play, their move first.

A read for the "Your games" page, the lobby's list and the table's "Next game waiting on you":
the tables where the person's move is due come first, soonest deadline first (tables without a
clock after those with one), then the others, with whose move it is, newest first.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from django.utils.translation import gettext

from accounts.models import User
from games.models import LIVE, Game, Seat
from games.services import clocks


@dataclass
class YourTable:
    """One table in a person's list."""

    game: Game
    your_move: bool
    answer_rematch: bool = False
    deadline: datetime | None = None
    time_left: str = ""
    to_move: list[str] = field(default_factory=list)
    away: list[str] = field(default_factory=list)

    @property
    def waits_on_you(self) -> bool:
        """Whether the table waits on the person (a move, or a yes or no to a rematch)."""
        return self.your_move or self.answer_rematch


def your_tables(user: User) -> list[YourTable]:
    """The person's open and running tables, those waiting on them first."""
    mine = Seat.objects.filter(user=user, game__status__in=LIVE).select_related("game")
    my_seats = {s.game_id: s for s in mine}
    if not my_seats:
        return []
    everyone: dict[int, list[Seat]] = {}
    for seat in Seat.objects.filter(game_id__in=my_seats).select_related("user"):
        everyone.setdefault(seat.game_id, []).append(seat)
    away = clocks.away_until({s.user_id for seats in everyone.values() for s in seats})
    at = clocks.now()
    tables = [
        table_for(seat, everyone[game_id], away, at, user) for game_id, seat in my_seats.items()
    ]
    tables.sort(key=order)
    return tables


def table_for(
    seat: Seat, seats: list[Seat], away: dict[int, str], at: datetime, user: User
) -> YourTable:
    """What the list says of one table for the person at `seat`."""
    game = seat.game
    table = YourTable(game=game, your_move=False)
    table.away = [
        f"{s.user.username}: on vacation until {away[s.user_id]}"
        for s in seats
        if s.user_id in away and s.user_id != user.pk and not s.bot
    ]
    if game.status == Game.Status.OPEN:
        table.answer_rematch = game.rematch_of_id is not None and seat.accepted is None
        return table
    if game.snapshot is None:
        return table
    state = game.spec.engine.load(game.snapshot)
    for other in seats:
        if other.position is not None and clocks.waits_on(game, state, other.position):
            if other.user_id == user.pk and not other.resigned:
                table.your_move = True
            else:
                table.to_move.append(other.user.username)
    if table.your_move and seat.deadline is not None:
        table.deadline = seat.deadline
        left = clocks.span_words((seat.deadline - at).total_seconds())
        table.time_left = gettext("%(left)s left") % {"left": left}
    return table


def order(table: YourTable) -> tuple[int, float, float]:
    """Waiting on you first (soonest deadline first), then the rest, newest first."""
    created = -table.game.created_at.timestamp()
    if table.waits_on_you:
        soon = table.deadline.timestamp() if table.deadline is not None else float("inf")
        return (0, soon, created)
    return (1, 0.0, created)


def next_waiting(user: User, after: int | None = None) -> YourTable | None:
    """The first table other than `after` where it is the person's move."""
    return next(
        (t for t in your_tables(user) if t.your_move and t.game.pk != after),
        None,
    )
