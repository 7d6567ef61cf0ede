"""What runs every TOURNAMENT_SWEEP_SECONDS in each serving process (games.live.runner.every):
the site's schedule kept ahead, "starts in 5 minutes" told once, tournaments started when
their time comes (or cancelled when too few came), tables whose end a lost signal missed
recorded, and for each running tournament what is due next (a Swiss round, an arena's free
people seated, an end). Every step locks the tournament's row and re-checks, so processes
sweeping at once do each thing once; all state is in rows, so a fresh process resumes."""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import timedelta

from games.models import Game
from games.tournaments import schedule, services
from games.tournaments.models import Table, Tournament

logger = logging.getLogger(__name__)

WARN_AHEAD = timedelta(minutes=5)


def each(ids: list[int], step: Callable[[int], object]) -> None:
    """Run the step for each id; one tournament failing does not hold up the others."""
    for pk in ids:
        try:
            step(pk)
        except Exception:
            logger.exception("%s failed for %s; the next sweep tries again", step.__name__, pk)


def sweep() -> None:
    """One pass of everything due."""
    at = services.now()
    schedule.keep_ahead(at)
    scheduled = Tournament.objects.filter(status=Tournament.Status.SCHEDULED)
    soon = scheduled.filter(starts_at__lte=at + WARN_AHEAD, warned=False)
    each(list(soon.values_list("pk", flat=True)), services.warn_soon)
    each(list(scheduled.filter(starts_at__lte=at).values_list("pk", flat=True)), services.start)
    ended = Table.objects.filter(
        recorded=False,
        tournament__status=Tournament.Status.RUNNING,
        game__status__in=(Game.Status.OVER, Game.Status.ABORTED),
    )
    each(list(ended.values_list("pk", flat=True)), services.record_table)
    running = Tournament.objects.filter(status=Tournament.Status.RUNNING)
    each(list(running.values_list("pk", flat=True)), services.advance)
