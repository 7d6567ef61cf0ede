"""Recount the /stats/<game>/ charts from every finished game (after an upgrade, or a repair)."""

from __future__ import annotations

from typing import cast

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games import catalog
from games.records import stats


class Command(BaseCommand):
    help = (
        "Recompute the stats charts' counters from the finished games, each rebuilt from its "
        "setup and actions; games today's rules cannot rebuild are skipped and named."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--game", default=None, help="only this game's slug")

    def handle(self, *args: object, **options: object) -> None:
        kind = cast("str | None", options["game"])  # --game
        if kind is not None and kind not in {s.slug for s in catalog.available()}:
            raise CommandError(f"Unknown game {kind!r}.")
        done = stats.recount(kind)
        count = done.counted
        self.stdout.write(f"Counted {count} finished game{'s' if count != 1 else ''}.")
        for game_id, why in done.skipped:
            self.stdout.write(self.style.WARNING(f"Skipped game {game_id}: {why}"))
        if done.skipped:
            skipped = len(done.skipped)
            self.stdout.write(
                self.style.WARNING(
                    f"{skipped} finished game{'s' if skipped != 1 else ''} not counted: "
                    "today's rules cannot rebuild them."
                )
            )
