"""Fill a new site with demo bakers and finished games, made through the services."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from games.demo import DEMO_BAKERS, make_demo
from games.models import Game


class Command(BaseCommand):
    help = "Make a few demo bakers and finished games of both kinds (history, replays, boards)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--games", type=int, default=8, help="finished games of each kind")
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument(
            "--if-empty", action="store_true", help="do nothing when the site has any game"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["if_empty"] and Game.objects.exists():
            return
        self.stdout.write(
            f"Demo data: {', '.join(DEMO_BAKERS)} play {options['games']} games of each kind..."
        )
        games = make_demo(options["games"], options["seed"], say=self.stdout.write)
        self.stdout.write(self.style.SUCCESS(f"Demo data ready: {len(games)} finished games."))
