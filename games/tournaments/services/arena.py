"""An arena under way: its free people (their table ended, not paused, here) seated at new
tables as they come free, mixed with others rather than their last table-mates when others
come free soon (draw.arena), until the arena's time runs out.
"""

from __future__ import annotations

from datetime import datetime

from django.conf import settings

from games.tournaments import draw
from games.tournaments.models import Entrant, Table, Tournament
from games.tournaments.services import busy
from games.tournaments.services.base import bump, now, tell_each
from games.tournaments.services.entry import blocked_pairs
from games.tournaments.services.seating import NewTables, present, seat_tables


def seat_free(tournament: Tournament) -> int:
    """Seat the locked arena's free people (their table ended, not paused, here) at new
    tables; how many tables. None after the arena's end."""
    at = now()
    if tournament.status != Tournament.Status.RUNNING or arena_over(tournament, at):
        return 0
    free = list(
        Entrant.objects.filter(tournament=tournament, withdrawn=False, paused=False)
        .exclude(table__recorded=False)
        .select_related("user", "table")
    )
    here = present(tournament, free, at)
    playing = busy.at_live_tables(e.user_id for e in free)  # skipped until free
    free = [e for e in free if e.pk in here and e.user_id not in playing]
    if len(free) < tournament.fewest:
        return 0
    waiting = [
        draw.Free(
            e.pk,
            e.points,
            e.rating,
            (e.free_since or at).timestamp(),
            frozenset(e.table.people) if e.table is not None else frozenset(),
        )
        for e in free
    ]
    tables = draw.arena(
        waiting,
        tournament.seats,
        tournament.fewest,
        at.timestamp(),
        settings.ARENA_SETTLE_SECONDS,
        blocked_pairs(free),
        mix_wait(tournament),
    )
    if not tables:
        return 0
    last = Table.objects.filter(tournament=tournament).order_by("-number").first()
    by_id = {e.pk: e for e in free}
    start_at = (last.number if last else 0) + 1
    told = seat_tables(NewTables(tournament, None, tables, [0] * len(tables), by_id, start_at))
    bump(tournament)
    tell_each(tournament, told)
    return len(tables)


def mix_wait(tournament: Tournament) -> float:
    """How long a table of last table-mates may wait for others to come free to mix with: none
    when nobody else is at a table now (nobody can come)."""
    tables = Table.objects.filter(tournament=tournament, recorded=False).exclude(game=None)
    return settings.ARENA_MIX_SECONDS if tables.exists() else 0.0


def arena_over(tournament: Tournament, at: datetime) -> bool:
    """Whether the arena's time ran out: no new table starts after it."""
    return tournament.ends_at is not None and at >= tournament.ends_at
