"""Ratings rebuilt from the record: every finished rated game, in the order they ended, handed
to accounts/ratings.py (which imports no game code) to rate again (`manage.py rerate`)."""

from __future__ import annotations

from collections.abc import Iterator

from django.db import transaction
from django.db.models import QuerySet

from accounts.ratings import Finished, rebuild
from games.models import Game


def finished_games(games: QuerySet[Game]) -> Iterator[Finished]:
    """Each game as a rating rebuild reads it (its seats read with all the games at once)."""
    for game in games.prefetch_related("seats"):
        yield Finished(game.kind, game.pk, game.finished_at, list(game.seats.all()))


@transaction.atomic
def rerate(kind: str | None = None) -> int:
    """Recompute ratings from scratch over every finished rated game (or one kind's), in the
    order they ended; how many games."""
    games = Game.objects.filter(status=Game.Status.OVER, rated=True).order_by("finished_at", "pk")
    if kind is not None:
        games = games.filter(kind=kind)
    return rebuild(finished_games(games), kind)
