"""make run's demo data: demo bakers, finished games of both kinds and a finished tournament
with its podium, through the services, and the site's next scheduled events."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command
from django.test import Client

from accounts.models import User
from games import services
from games.demo import DEMO_BAKERS
from games.models import Game, StatCount
from games.tournaments.models import Entrant, Table, Tournament

# backend: make run's demo data, on either database.
pytestmark = [pytest.mark.django_db, pytest.mark.backend]


def test_demo_makes_finished_games_of_both_kinds_and_only_on_an_empty_site() -> None:
    out = StringIO()
    call_command("demo", "--games", "1", "--if-empty", stdout=out)
    games = list(Game.objects.filter(tournament_table__isnull=True))
    assert sorted(g.kind for g in games) == ["cakehalla", "midnight-bakery"]
    for game in games:
        assert game.status == Game.Status.OVER and game.actions.exists()
        # Made move by move through the services: the action log rebuilds the stored end.
        assert game.spec.engine.dump(services.replay(game)) == game.snapshot
        people = [s.user for s in game.seats.select_related("user") if not s.bot]
        assert len(people) >= 2 and all(p.username in DEMO_BAKERS for p in people)
        # The first night of the demo seats two bakers, for the Night Owl; others three.
        assert len(people) == (2 if game.kind == "midnight-bakery" else 3)
    demo = User.objects.filter(username__in=DEMO_BAKERS)
    assert demo.count() == len(DEMO_BAKERS)
    assert not any(u.has_usable_password() or u.is_bot for u in demo)
    assert StatCount.objects.filter(kind="cakehalla", chart="bought").exists()
    assert "Demo data ready: 2 finished games." in out.getvalue()
    # A second run on a site with games does nothing.
    made = Game.objects.count()
    call_command("demo", "--if-empty", stdout=StringIO())
    assert Game.objects.count() == made
    history = Client().get("/games/history/").content.decode()
    assert all(f"/games/{g.pk}/replay/" in history for g in Game.objects.all())


def test_demo_makes_a_finished_tournament_with_its_podium_and_a_scheduled_one() -> None:
    out = StringIO()
    call_command("demo", "--games", "1", stdout=out)
    finished = Tournament.objects.get(status=Tournament.Status.FINISHED)
    podium = Entrant.objects.filter(tournament=finished, place__lte=3).order_by("place")
    names = list(podium.values_list("user__username", flat=True))
    assert len(names) == 3 and set(names) <= set(DEMO_BAKERS)
    assert f"{finished.name}: 1st {names[0]}, 2nd {names[1]}, 3rd {names[2]}" in out.getvalue()
    points = list(podium.values_list("points", flat=True))
    assert points == sorted(points, reverse=True) and points[0] > 0
    # Played by the demo bakers through the services: every table a finished game of people.
    tables = list(Table.objects.filter(tournament=finished).select_related("game"))
    assert tables and all(t.recorded and t.game for t in tables)
    assert all(t.game.status == Game.Status.OVER for t in tables if t.game)
    assert finished.current_round == finished.rounds
    scheduled = Tournament.objects.filter(status=Tournament.Status.SCHEDULED, private=False)
    assert scheduled.exists()
    lobby = Client().get("/").content.decode()
    assert 'id="next-event"' in lobby
    soonest = scheduled.order_by("starts_at").first()
    assert soonest is not None and soonest.name in lobby
