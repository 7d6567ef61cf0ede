"""make run's demo data: demo bakers and finished games of both kinds, through the services."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command
from django.test import Client

from accounts.models import User
from games import services
from games.demo import DEMO_BAKERS
from games.models import Game, StatCount

pytestmark = pytest.mark.django_db


def test_demo_makes_finished_games_of_both_kinds_and_only_on_an_empty_site() -> None:
    out = StringIO()
    call_command("demo", "--games", "1", "--if-empty", stdout=out)
    games = list(Game.objects.all())
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
    call_command("demo", "--if-empty", stdout=StringIO())
    assert Game.objects.count() == 2
    history = Client().get("/games/history/").content.decode()
    assert all(f"/games/{g.pk}/replay/" in history for g in games)
