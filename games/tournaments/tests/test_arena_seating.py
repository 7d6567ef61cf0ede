"""An arena's re-seating through the services: a finished table's people, free together, are
mixed with others rather than seated together again, and nobody waits past ARENA_MIX_SECONDS
for it."""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import datetime
from typing import Any

import pytest

from accounts.models import User
from games.tournaments import services
from games.tournaments.models import Table, Tournament
from games.tournaments.tests.conftest import entered, play_table, rules, running_tables, swept
from tests.support.clock import Clock

Crowd = Callable[[int], list[User]]

MIX = 30.0
STEP = 4.0  # seconds between two sweeps


class Arena:
    """A fast arena of six at tables of three, swept every STEP seconds with everyone here,
    keeping when each entrant came free and every table seated."""

    def __init__(self, clock: Clock, people: list[User], tournament: Tournament) -> None:
        self.clock, self.people, self.tournament = clock, people, tournament
        self.freed: dict[int, datetime] = {}
        self.waits: list[float] = []
        self.seen: set[int] = set()
        self.last: dict[int, frozenset[int]] = {}
        self.reseated = 0
        self.again = 0

    def sweep(self) -> None:
        for person in self.people:
            services.here(self.tournament.pk, person.pk)
        self.tournament = swept(self.tournament)
        for table in Table.objects.filter(tournament=self.tournament).order_by("pk"):
            if table.pk not in self.seen:
                self.seated(table)

    def seated(self, table: Table) -> None:
        self.seen.add(table.pk)
        people = frozenset(table.people)
        if all(e in self.last for e in people):
            self.reseated += 1
            self.again += any(people <= self.last[e] for e in people)
        for e in people:
            if e in self.freed:
                self.waits.append((self.clock() - self.freed.pop(e)).total_seconds())
            self.last[e] = people

    def end_one(self, rng: random.Random) -> None:
        """One running table (drawn by lot) played to its end now."""
        table = rng.choice(running_tables(self.tournament))
        play_table(table)
        for e in table.people:
            self.freed[e] = self.clock()

    def wait(self, seconds: float) -> None:
        """Time passes, swept every STEP seconds."""
        waited = 0.0
        while waited < seconds:
            self.clock.forward(STEP)
            waited += STEP
            self.sweep()


@pytest.mark.django_db
def test_an_arena_mixes_a_finished_tables_people_with_others_within_the_bound(
    clock: Clock, crowd: Crowd, settings: Any
) -> None:
    settings.ARENA_MIX_SECONDS = MIX
    people = crowd(6)
    made = services.create(None, rules(clock, format="arena", pace="fast", minutes=600, seats=3))
    arena = Arena(clock, people, entered(made, people))
    clock.forward(61)
    arena.sweep()
    assert len(running_tables(arena.tournament)) == 2
    rng = random.Random(46)
    while arena.reseated < 24:
        arena.end_one(rng)
        arena.wait(rng.uniform(1, 45))  # the other table ends this much later
    # Before: a table's three, free together, sat down together again at once, every time.
    # Now they wait for the other table, up to MIX seconds: mixed unless it ends later still.
    print(f"{arena.again} of {arena.reseated} re-seated with only their last table-mates")
    assert arena.again <= arena.reseated // 3, (arena.again, arena.reseated)
    # A table's end is recorded by the next sweep here (no commit in this test, so no signal),
    # and the sweeps come every STEP: the bound, plus a step for each.
    assert max(arena.waits) <= MIX + 2 * STEP, max(arena.waits)
