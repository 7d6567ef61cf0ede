"""Site totals for the stats page: a handful of cheap aggregate queries."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.db.models import Count, Q
from django.utils import timezone

from accounts.models import User
from games import catalog
from games.models import Game, Seat

ACTIVE_DAYS = 7
TOP_ACTIVE = 10


def games_by_kind() -> list[dict[str, Any]]:
    """Per game: finished games and games running now."""
    counts = {
        row["kind"]: row
        for row in Game.objects.values("kind").annotate(
            finished=Count("pk", filter=Q(status=Game.Status.OVER)),
            running=Count("pk", filter=Q(status=Game.Status.RUNNING)),
        )
    }
    return [
        {
            "spec": spec,
            "finished": counts.get(spec.slug, {}).get("finished", 0),
            "running": counts.get(spec.slug, {}).get("running", 0),
        }
        for spec in catalog.available()
    ]


def most_active(days: int = ACTIVE_DAYS, top: int = TOP_ACTIVE) -> list[dict[str, Any]]:
    """The people who finished the most games in the last days (bots left out)."""
    since = timezone.now() - timedelta(days=days)
    return list(
        Seat.objects.filter(
            game__status=Game.Status.OVER, game__finished_at__gte=since, user__is_bot=False
        )
        .values("user__username")
        .annotate(played=Count("pk"), won=Count("pk", filter=Q(winner=True)))
        .order_by("-played", "-won", "user__username")[:top]
    )


def totals() -> dict[str, Any]:
    """Everything the stats page shows."""
    kinds = games_by_kind()
    return {
        "kinds": kinds,
        "finished": sum(k["finished"] for k in kinds),
        "running": sum(k["running"] for k in kinds),
        "people": User.objects.filter(is_bot=False).count(),
        "bots": User.objects.filter(is_bot=True).count(),
        "active": most_active(),
        "active_days": ACTIVE_DAYS,
    }
