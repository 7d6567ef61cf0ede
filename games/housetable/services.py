"""The house table: the lobby never looks empty. When no game of people that anyone may watch
is running, the sweep (every HOUSE_TABLE_SWEEP_SECONDS in each serving process) starts a game
of house bots through games.services.house_table, whose bots move at a pace watchers can
follow. One at a time for the whole site, by the database: a start happens only under the lock
of the site's HouseTable row, and re-checks there. A house game plays to its end even when
people's games start meanwhile (watchers keep their game); the next starts only once it ended
and still no person's game may be watched, with the next game on offer.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.db import transaction

from games import catalog, services
from games.access import live_to_watch
from games.housetable.models import HouseTable
from games.models import Game, Seat


def lock_row() -> HouseTable:
    """The site's house table row, made the first time, locked until the transaction ends."""
    row, _ = HouseTable.objects.get_or_create(pk=HouseTable.SITE)
    return HouseTable.objects.select_for_update().get(pk=row.pk)


def running_now() -> bool:
    """Whether the house table's game is running."""
    return HouseTable.objects.filter(pk=HouseTable.SITE, game__status=Game.Status.RUNNING).exists()


def people_to_watch() -> bool:
    """Whether a rated game of people that anyone may watch is running (the lobby's Watch live):
    practice tables and tables left behind do not keep the house table away."""
    return live_to_watch().filter(rated=True).exists()


def next_kind(last: Game | None) -> str:
    """The game on offer after the last house game's (the first at the start)."""
    offered = [spec.slug for spec in catalog.available()]
    if last is None or last.kind not in offered:
        return offered[0]
    return offered[(offered.index(last.kind) + 1) % len(offered)]


def bot_levels(kind: str) -> list[str]:
    """The house table's bots: as many as a quick game seats, the strongest level and the house
    bot's in turn."""
    spec = catalog.get(kind)
    pair = (spec.strongest_bot, spec.house_bot)
    return [pair[i % 2] for i in range(spec.quick_capacity)]


def keep_going() -> Game | None:
    """The sweep: start a house game if none runs and no person's game may be watched; the game
    started here, if any (two processes at once start one: the second finds it under the lock)."""
    if running_now() or people_to_watch():  # the usual answer, without a lock
        return None
    with transaction.atomic():
        row = lock_row()
        last = row.game
        if (last is not None and last.status == Game.Status.RUNNING) or people_to_watch():
            return None
        kind = next_kind(last)
        row.game = services.house_table(kind, bot_levels(kind))
        row.started += 1
        row.save(update_fields=["game", "started"])
    return row.game


@dataclass(frozen=True)
class Showing:
    """The house game the lobby shows: the game, its bots' seats, their pace in seconds."""

    game: Game
    seats: list[Seat]
    move_seconds: float


def showing() -> Showing | None:
    """The house game running now, with its bots (two queries), or None."""
    row = (
        HouseTable.objects.select_related("game")
        .filter(pk=HouseTable.SITE, game__status=Game.Status.RUNNING)
        .first()
    )
    if row is None or row.game is None:
        return None
    seats = list(Seat.objects.filter(game=row.game).select_related("user").order_by("position"))
    return Showing(row.game, seats, settings.HOUSE_TABLE_MOVE_SECONDS)
