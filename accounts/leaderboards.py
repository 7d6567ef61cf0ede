"""Per-game leaderboards: rated players best first, people only unless bots are asked for.

Only players with MIN_RANKED_GAMES rated games of that game, the last within RANKED_RECENT_DAYS,
are listed: a lucky first game or an old peak cannot camp at the top. Profiles still show the
others' ratings, marked provisional or resting.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta

from django.db.models import QuerySet
from django.utils import timezone

from accounts.models import MIN_RANKED_GAMES, RANKED_RECENT_DAYS, Rating

TOP_ON_INDEX = 10
PAGE_SIZE = 25


def board(kind: str, *, bots: bool = False) -> QuerySet[Rating]:
    """The ratings of everyone eligible at this kind, best conservative rating first."""
    since = timezone.now() - timedelta(days=RANKED_RECENT_DAYS)
    rows = Rating.objects.filter(
        kind=kind, games__gte=MIN_RANKED_GAMES, last_played_at__gte=since
    ).select_related("user")
    if not bots:
        rows = rows.exclude(user__is_bot=True).exclude(user__plays_by_api=True)
    return rows.order_by("-ordinal", "-games", "user__username")


def wants_bots(raw: str | None) -> bool:
    """Whether the query string asks for bots on the board (?bots=1)."""
    return raw in {"1", "on", "true", "yes"}


def ranks(
    board_rows: QuerySet[Rating], shown: Sequence[Rating], offset: int = 0
) -> list[tuple[int, Rating]]:
    """Each shown row with its rank: equal ratings share one and the next skips (1, 2, 2, 4).

    `shown` is the slice of `board_rows` that starts after `offset` rows; a first row that
    may tie with the page before is placed by one count.
    """
    out: list[tuple[int, Rating]] = []
    for i, row in enumerate(shown):
        if i == 0:
            rank = 1 + board_rows.filter(rating__gt=row.rating).count() if offset else 1
        elif row.rating != shown[i - 1].rating:
            rank = offset + i + 1
        out.append((rank, row))
    return out
