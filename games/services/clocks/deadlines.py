"""What fires a deadline: the queries each serving process's runner asks (games/live/runner.py).

A drive that leaves a person's clock running sets a timer on the runner's loop for the game's
next deadline (`next_deadline`), unless it is more than LONGEST_TIMER away; the runner's sweep
wakes the games with a deadline due (`due_deadlines`: set by another process, or before a
restart). Woken, the game's step lets a stand-in move (clocks/stand_in.py).
"""

from __future__ import annotations

from games.models import Game, Seat
from games.services import clocks

LONGEST_TIMER = 3600.0
"""Seconds: a deadline further off is left to the sweep, so no timer is held for days."""


def due_deadlines() -> list[int]:
    """The running games where a person's time ran out."""
    due = Seat.objects.filter(deadline__lte=clocks.now(), game__status=Game.Status.RUNNING)
    return sorted(set(due.values_list("game_id", flat=True)))


def next_deadline(game_id: int) -> float | None:
    """Seconds until the game's next deadline (negative if due), or None without a clock."""
    first = (
        Seat.objects.filter(game_id=game_id, game__status=Game.Status.RUNNING)
        .exclude(deadline=None)
        .order_by("deadline")
        .values_list("deadline", flat=True)
        .first()
    )
    return None if first is None else (first - clocks.now()).total_seconds()


def timer_delay(delay: float | None) -> float | None:
    """Seconds from now to wake a game whose next deadline is `delay` away: just past it (the
    stand-in checks it is due), or None for no timer (no clock, or left to the sweep)."""
    if delay is None or delay > LONGEST_TIMER:
        return None
    return max(0.0, delay) + 0.05
