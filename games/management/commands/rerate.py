"""Rebuild every rating from the finished games, in the order they ended."""

from __future__ import annotations

from typing import cast

from django.core.management.base import BaseCommand, CommandParser

from games.records.ratings import rerate


class Command(BaseCommand):
    help = "Recompute ratings from scratch over every finished game (or one game kind)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--game", default=None, help="only this game slug")

    def handle(self, *args: object, **options: object) -> None:
        count = rerate(cast("str | None", options["game"]))  # --game
        self.stdout.write(f"Rated {count} finished game{'s' if count != 1 else ''}.")
