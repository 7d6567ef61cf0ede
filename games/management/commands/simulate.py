"""Play whole games between bot accounts through the services, stored like any game."""

from __future__ import annotations

from typing import cast

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games import catalog, services
from games.models import Game


class Command(BaseCommand):
    help = "Play K whole games of N bots each, through the same services as people."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--game",
            default="",
            help=f"one of {', '.join(slug for slug, _ in catalog.choices())} (the first if none)",
        )
        parser.add_argument("--players", type=int, default=2)
        parser.add_argument("--games", type=int, default=1)
        parser.add_argument("--bots", default="greedy", help="a level, or levels comma-separated")

    def handle(self, *args: object, **options: object) -> None:
        asked = cast(str, options["game"])
        players, count = cast(int, options["players"]), cast(int, options["games"])
        try:
            spec = catalog.get(asked or catalog.available()[0].slug)
        except KeyError as exc:
            raise CommandError(f"Unknown game {asked!r}.") from exc
        levels = [lv.strip() for lv in cast(str, options["bots"]).split(",") if lv.strip()]
        if not levels or any(lv not in spec.bot_levels for lv in levels):
            raise CommandError(f"Bots must be among {', '.join(spec.bot_levels)}.")
        for n in range(count):
            game = simulate_one(spec.slug, players, levels)
            seats = game.seats.order_by("position")
            summary = ", ".join(f"{s.user.username} {s.score}" for s in seats)
            self.stdout.write(f"game {game.pk} ({n + 1}/{count}): {summary}")


def simulate_one(kind: str, players: int, levels: list[str]) -> Game:
    """One game between bots, hosted by the first bot account; returns it finished."""
    try:
        host = services.bot_account(levels[0], set())
        game = services.create_game(host, kind, players, host_bot=levels[0])
        for i in range(1, players):
            services.add_bot(game, host, levels[i % len(levels)])
        services.start(game, host)
        services.run_bots(game.pk)
    except services.ServiceError as exc:
        raise CommandError(str(exc)) from exc
    game.refresh_from_db()
    if game.status != Game.Status.OVER:
        raise CommandError(f"Game {game.pk} did not finish: the bots stopped at {game.moves}.")
    return game
