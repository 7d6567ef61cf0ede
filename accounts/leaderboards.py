"""Per-game leaderboards: rated players best first, people only unless bots are asked for."""

from __future__ import annotations

from django.db.models import QuerySet

from accounts.models import Rating

TOP_ON_INDEX = 10
PAGE_SIZE = 25


def board(kind: str, *, bots: bool = False) -> QuerySet[Rating]:
    """The ratings of everyone with a finished game at this kind, best conservative rating first."""
    rows = Rating.objects.filter(kind=kind, games__gte=1).select_related("user")
    if not bots:
        rows = rows.exclude(user__is_bot=True)
    return rows.order_by("-ordinal", "-games", "user__username")


def wants_bots(raw: str | None) -> bool:
    """Whether the query string asks for bots on the board (?bots=1)."""
    return raw in {"1", "on", "true", "yes"}
