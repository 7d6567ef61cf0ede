"""Waiting tables nobody started: the sweep closes them once they waited past their time."""

from __future__ import annotations

from datetime import timedelta

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_noop as N_

from games.models import TURN_BASED, Game
from games.services import clocks
from games.services.base import UNSTARTED, commit_version, lock, notice

# A table still waiting this long after it was opened is closed by the sweep: its people have gone
# (a live table is played within the evening; a turn-based one waits days for its players).
WAITING_LIVE_FOR = timedelta(days=1)
WAITING_TURN_BASED_FOR = timedelta(days=7)


def unstarted_words(game: Game) -> str:
    """Why the sweep closed a table nobody started, in a sentence (kept as its notice's msgid)."""
    if game.turn_based:
        return N_("This table closed: it waited a week and nobody started it.")
    return N_("This table closed: it waited a day and nobody started it.")


def close_unstarted_tables() -> list[int]:
    """Each sweep: close the open tables (rematches offered too) that waited past their time;
    the tables closed. Several processes may find one: the status re-check under the lock lets
    one close it."""
    at = clocks.now()
    turn_based = Q(pace__in=TURN_BASED)
    overdue = Game.objects.filter(status=Game.Status.OPEN).filter(
        (turn_based & Q(created_at__lte=at - WAITING_TURN_BASED_FOR))
        | (~turn_based & Q(created_at__lte=at - WAITING_LIVE_FOR))
    )
    found = overdue.order_by("pk").values_list("pk", flat=True)
    return [pk for pk in found if close_unstarted(pk)]


@transaction.atomic
def close_unstarted(game_id: int) -> bool:
    """Close one overdue table, still open under its lock (a rematch's finished game locked
    first, as cancel does, and told too); whether it was closed."""
    finished = Game.objects.filter(pk=game_id).values_list("rematch_of_id", flat=True).first()
    old = lock(finished) if finished is not None else None
    game = lock(game_id)
    if game.status != Game.Status.OPEN:
        return False
    game.status = Game.Status.CANCELLED
    game.finished_at = timezone.now()
    notice(game, unstarted_words(game), mark=UNSTARTED)
    commit_version(game, ["status", "finished_at", "notices"])
    if old is not None:
        commit_version(old, [])
    return True
