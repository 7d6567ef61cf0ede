"""The site's own events (settings.TOURNAMENT_SCHEDULE): when each entry next starts, and its
next occurrence kept created ahead (one row per entry and start time, whichever process makes
it)."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import TypedDict, cast

from django.conf import settings
from django.db import IntegrityError

from games.tournaments.models import Tournament
from games.tournaments.services import Rules, ServiceError, create

EVERY = ("hourly", "daily", "weekly")


class Entry(TypedDict, total=False):
    """One entry of settings.TOURNAMENT_SCHEDULE: its key, when it runs, and its settings."""

    key: str
    every: str
    minute: int
    hour: int
    weekday: int
    name: str
    kind: str
    format: str
    pace: str
    seats: int
    fewest: int
    rounds: int | None
    minutes: int | None
    place_points: dict[str, list[float]] | None
    bye: str
    streak_bonus: int


def next_start(entry: Entry, after: datetime) -> datetime:
    """The entry's first start strictly after `after` (UTC): at its minute of each hour, its hour
    and minute of each day, or also its weekday (0 is Monday) of each week."""
    every = entry.get("every")
    if every not in EVERY:
        raise ValueError(f"A schedule entry runs {', '.join(EVERY)}, not {every!r}.")
    at = after.replace(second=0, microsecond=0, minute=int(entry.get("minute", 0)))
    if every == "hourly":
        step = timedelta(hours=1)
    else:
        at = at.replace(hour=int(entry.get("hour", 0)))
        step = timedelta(days=1)
        if every == "weekly":
            at -= timedelta(days=at.weekday() - int(entry.get("weekday", 0)))
            step = timedelta(weeks=1)
    while at <= after:
        at += step
    return at


def rules_of(entry: Entry, starts_at: datetime) -> Rules:
    """A schedule entry as a tournament's settings."""
    return Rules(
        name=entry["name"],
        kind=entry["kind"],
        format=entry["format"],
        pace=entry["pace"],
        starts_at=starts_at,
        seats=int(entry["seats"]),
        fewest=int(entry.get("fewest", entry["seats"])),
        rounds=entry.get("rounds"),
        minutes=entry.get("minutes"),
        place_points=entry.get("place_points"),
        bye=entry.get("bye", Tournament.Bye.POINTS),
        streak_bonus=int(entry.get("streak_bonus", 2)),
    )


def keep_ahead(at: datetime) -> list[Tournament]:
    """Make each schedule entry's next occurrence if it is not there yet; the ones made here."""
    made = []
    for entry in cast(list[Entry], settings.TOURNAMENT_SCHEDULE):
        starts_at = next_start(entry, at)
        key = str(entry["key"])
        if Tournament.objects.filter(scheduled_by=key, starts_at=starts_at).exists():
            continue
        try:
            made.append(create(None, rules_of(entry, starts_at), scheduled_by=key))
        except IntegrityError:  # another process made it at the same moment
            continue
        except ServiceError as refused:
            raise ValueError(f"TOURNAMENT_SCHEDULE entry {key!r}: {refused}") from None
    return made
