"""make run's demo events: the site's next scheduled events made at once (the sweep would make
them on the server's first pass), and a finished Swiss of the demo bakers with its podium,
played through the services move by move as the demo's games are, so a newcomer sees what a
tournament looks like."""

from __future__ import annotations

import random
from datetime import datetime

from django.db import transaction

from accounts.models import User
from games.demo import play_through
from games.models import Game
from games.tournaments import schedule, services
from games.tournaments.models import Entrant, Table, Tournament

MOST_TABLES = 20


def demo_swiss(at: datetime) -> services.Rules:
    """The demo bakers' Swiss: two rounds of Cakehalla at tables of two, starting now."""
    return services.Rules(
        name="Demo bakers' Cakehalla Swiss",
        kind="cakehalla",
        format=Tournament.Format.SWISS,
        pace=Game.Pace.RELAXED,
        starts_at=at,
        seats=2,
        rounds=2,
    )


@transaction.atomic
def make_demo_events(bakers: list[User], rng: random.Random) -> Tournament:
    """The site's next scheduled events, and the demo bakers' Swiss played to its end."""
    at = services.now()
    schedule.keep_ahead(at)
    tournament = services.create(bakers[0], demo_swiss(at))
    for baker in bakers:
        services.join(tournament, baker)
    services.start(tournament)
    for _ in range(MOST_TABLES):
        table = (
            Table.objects.filter(tournament=tournament, recorded=False)
            .exclude(game=None)
            .select_related("game")
            .first()
        )
        if table is None or table.game is None:
            break
        play_through(table.game, rng)
        for baker in bakers:  # the demo bakers keep the tournament's page open
            services.here(tournament.pk, baker.pk)
        services.table_ended(table.game.pk)
    tournament.refresh_from_db()
    if tournament.status != Tournament.Status.FINISHED:
        raise RuntimeError(f"The demo tournament {tournament.pk} did not finish.")
    return tournament


def podium(tournament: Tournament) -> list[str]:
    """The names of the first three, best first."""
    placed = Entrant.objects.filter(tournament=tournament, place__lte=3).order_by("place")
    return list(placed.values_list("user__username", flat=True))
