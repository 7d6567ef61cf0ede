"""What the tournament tests share: people, a clock moved by hand, tournaments made through the
services, and their tables played to the end by the people (as the greedy bot would)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest

from accounts.models import User
from games.models import Game
from games.tournaments import services, sweep
from games.tournaments.models import Entrant, Table, Tournament
from tests.support.clock import Clock
from tests.support.finished_games import play_out


@pytest.fixture(autouse=True)
def _bots_inline_here(bots_inline: None) -> None:
    """The tournament tests read the bots' answers at once, and no runner of their own may run
    the features' sweeps under their feet (a socket test would start one): bots move inline in
    this folder (tests/fixtures.py: bots_inline)."""


@pytest.fixture(autouse=True)
def _no_site_schedule(settings: Any) -> None:
    """The site's own events are not made unless a test asks (test_schedule.py)."""
    settings.TOURNAMENT_SCHEDULE = []


@pytest.fixture
def crowd(make_user: Callable[[str], User]) -> Callable[[int], list[User]]:
    """A factory of that many new people."""
    made = [0]

    def make(count: int) -> list[User]:
        start = made[0]
        made[0] += count
        return [make_user(f"baker{start + i}") for i in range(count)]

    return make


def rules(clock: Clock, **changes: Any) -> services.Rules:
    """A turn-based Midnight Bakery Swiss of 3 rounds, tables of 3, starting in a minute."""
    settings: dict[str, Any] = {
        "name": "Test Swiss",
        "kind": "midnight-bakery",
        "format": "swiss",
        "pace": "day1",
        "starts_at": clock() + timedelta(minutes=1),
        "seats": 3,
        "rounds": 3,
    }
    settings.update(changes)
    return services.Rules(**settings)


def entered(tournament: Tournament, people: list[User]) -> Tournament:
    """The people joined, the tournament read again."""
    for person in people:
        services.join(tournament, person, tournament.invite)
    tournament.refresh_from_db()
    return tournament


def running_tables(tournament: Tournament) -> list[Table]:
    """The tournament's tables whose game still runs."""
    return list(
        Table.objects.filter(
            tournament=tournament, recorded=False, game__status=Game.Status.RUNNING
        ).select_related("game")
    )


def play_table(table: Table) -> Game:
    """Every person at the table plays as the greedy bot would, to the game's end."""
    users = [e.user for e in Entrant.objects.filter(pk__in=table.people).select_related("user")]
    assert table.game is not None
    return play_out(table.game, users, seed=table.pk)


def swept(tournament: Tournament) -> Tournament:
    """One sweep, the tournament read again."""
    sweep.sweep()
    tournament.refresh_from_db()
    return tournament


@pytest.fixture(autouse=True)
def _fresh_tournament_renders() -> None:
    """Each test starts with no board or render kept: tournament ids repeat between tests."""
    from games.tournaments import shared

    shared.forget_all()
