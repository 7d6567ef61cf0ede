"""Clocks stood still by a vacation, and a person's whereabouts.

Turn-based paces give days a move. There a person's vacation (accounts.models.Vacation) stands
their clocks still: a clock that starts during one starts at its end (run_clock), and a deadline
after its start moves on by the part of it still to come (paused; games/vacation/services.py pushes
the running ones when a vacation is taken).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db.models import OuterRef, Subquery

from accounts.models import User, Vacation
from games.services.clocks import timing

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
    at = timing.now()
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
    at = timing.now()
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
