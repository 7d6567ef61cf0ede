"""What the pairing's pages show: how many look per game and pace (kept a second: the waiting
panels' beats ask far more often than the lobby), and a seek as its waiting panel shows it."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.core.cache import cache
from django.db.models import Count

from games import catalog
from games.kinds.base import AnyKind
from games.pairing import draw
from games.pairing.models import Seek
from games.pairing.services import LOOKING_CACHE_SECONDS, LOOKING_KEY, now, seeker, sizes_key

Counts = dict[tuple[str, str], int]


def looking_now() -> Counts:
    """How many are looking per game and pace: one grouped count (kept a second for the
    waiting panels' beats, which ask far more often than the lobby)."""
    rows = Seek.objects.values("kind", "pace").annotate(n=Count("pk")).order_by()
    counts = [(r["kind"], r["pace"], r["n"]) for r in rows]
    cache.set(LOOKING_KEY, counts, LOOKING_CACHE_SECONDS)
    return {(kind, pace): n for kind, pace, n in counts}


def looking() -> Counts:
    """How many are looking per game and pace, as counted within the last second."""
    counts: list[tuple[str, str, int]] | None = cache.get(LOOKING_KEY)
    if counts is None:
        return looking_now()
    return {(kind, pace): n for kind, pace, n in counts}


Sizes = dict[tuple[int, int], int]
"""How many look in one pool for each (fewest, most) count of bakers."""


def pool_sizes(kind: str, pace: str) -> Sizes:
    """How many look in this pool for each count of bakers: one grouped count (a handful of
    rows), kept a second like `looking`, for the waiting panels' beats."""
    key = sizes_key(kind, pace)
    rows: list[tuple[int, int, int]] | None = cache.get(key)
    if rows is None:
        found = Seek.objects.filter(kind=kind, pace=pace).values("fewest", "most")
        counted = found.annotate(n=Count("pk")).order_by()
        rows = [(r["fewest"], r["most"], r["n"]) for r in counted]
        cache.set(key, rows, LOOKING_CACHE_SECONDS)
    return {(fewest, most): n for fewest, most, n in rows}


def meet(a: tuple[int, int], b: tuple[int, int]) -> bool:
    """Whether two counts of bakers (fewest, most) share a table size."""
    return max(a[0], b[0]) <= min(a[1], b[1])


@dataclass(frozen=True)
class Waiting:
    """What the waiting panel shows of a seek at one moment; `apart` are the counts of bakers
    others look for that cannot meet this seek's ((fewest, most) and how many), set only when
    nobody else looking could share a table with it."""

    seek: Seek
    spec: AnyKind
    lowest: int
    highest: int
    waited: int
    others: int
    apart: tuple[tuple[int, int, int], ...] = ()


def apart_from(seek: Seek, sizes: Sizes) -> tuple[tuple[int, int, int], ...]:
    """The others' counts of bakers that cannot meet this seek's, if no other's can (else ())."""
    own = (seek.fewest, seek.most)
    meeting = sum(n for size, n in sizes.items() if meet(size, own)) - (1 if own in sizes else 0)
    if meeting > 0:
        return ()  # someone else could share a table: the wait is for rating or numbers
    return tuple((f, m, n) for (f, m), n in sorted(sizes.items()) if not meet((f, m), own))


def waiting(seek: Seek, counts: Counts, at: datetime | None = None) -> Waiting:
    """The seek as its waiting panel shows it now: the rating window, the wait, who else looks
    (from `counts`: looking_now or looking), and the counts of bakers that keep others apart."""
    at = at or now()
    wide = draw.window(seeker(seek), at.timestamp())
    others = max(0, counts.get((seek.kind, seek.pace), 1) - 1)
    waited = max(0, int((at - seek.created_at).total_seconds()))
    spec = catalog.get(seek.kind)
    apart = apart_from(seek, pool_sizes(seek.kind, seek.pace)) if others else ()
    return Waiting(seek, spec, seek.rating - wide, seek.rating + wide, waited, others, apart)
