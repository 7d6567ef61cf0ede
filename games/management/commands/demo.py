"""Fill a new site with demo bakers, finished games and a finished tournament, made through the
services, and the site's next scheduled events."""

from __future__ import annotations

import random
from typing import cast

from django.core.management.base import BaseCommand, CommandParser

from games.demo import DEMO_BAKERS, demo_bakers, make_demo
from games.models import Game
from games.tournaments.demo import make_demo_events, podium


class Command(BaseCommand):
    help = (
        "Make a few demo bakers, finished games of both kinds (history, replays, boards) and a "
        "finished tournament, and the site's next scheduled events."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--games", type=int, default=8, help="finished games of each kind")
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument(
            "--if-empty", action="store_true", help="do nothing when the site has any game"
        )

    def handle(self, *args: object, **options: object) -> None:
        count, seed = cast(int, options["games"]), cast(int, options["seed"])
        if options["if_empty"] and Game.objects.exists():
            return
        self.stdout.write(f"Demo data: {', '.join(DEMO_BAKERS)} play {count} games of each kind...")
        games = make_demo(count, seed, say=self.stdout.write)
        tournament = make_demo_events(demo_bakers(), random.Random(seed))
        first, second, third = podium(tournament)
        self.stdout.write(f"{tournament.name}: 1st {first}, 2nd {second}, 3rd {third}")
        self.stdout.write(self.style.SUCCESS(f"Demo data ready: {len(games)} finished games."))
