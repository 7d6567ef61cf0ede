"""One person, one live table, through the services: no two live tournaments whose times
overlap, an arena skips someone playing a live table elsewhere until they are free, and a
limit on the tournaments one is entered in at once."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest

from accounts.models import User
from games.models import Game
from games.services import seat_people
from games.tournaments import services
from games.tournaments.models import Entrant, Tournament
from games.tournaments.tests.conftest import entered, play_table, rules, running_tables, swept
from tests.support.clock import Clock
from tests.support.finished_games import play_out

Crowd = Callable[[int], list[User]]


def arena(clock: Clock, name: str, **changes: Any) -> Tournament:
    """A fast arena of 30 minutes, tables of 3, starting in a minute."""
    made = rules(clock, name=name, format="arena", pace="fast", minutes=30, seats=3, **changes)
    return services.create(None, made)


@pytest.mark.django_db
def test_two_arenas_that_start_together_take_a_person_once(clock: Clock, crowd: Crowd) -> None:
    (person,) = crowd(1)
    first, second = arena(clock, "Early Rise"), arena(clock, "Dawn Bake")
    services.join(first, person)
    with pytest.raises(services.ServiceError) as refused:
        services.join(second, person)
    assert str(refused.value) == (
        "You are in Early Rise, played live at the same time as this one: you can play only one "
        "live table at a time, so leave it first to join this one."
    )
    assert not Entrant.objects.filter(tournament=second).exists()  # nothing changed
    later = arena(clock, "Late Bake", starts_at=clock() + timedelta(minutes=40))
    services.join(later, person)  # the first has ended by then
    services.withdraw(first, person)
    services.join(second, person)  # left the first: free to join


@pytest.mark.django_db
def test_turn_based_tournaments_may_overlap(clock: Clock, crowd: Crowd) -> None:
    (person,) = crowd(1)
    for name in ("Slow Rise", "Long Proof"):
        services.join(services.create(None, rules(clock, name=name)), person)
    services.join(arena(clock, "Quick Bake"), person)  # a live one beside turn-based ones
    assert Entrant.objects.filter(user=person).count() == 3


@pytest.mark.django_db
def test_one_is_entered_in_a_limited_number_of_tournaments_at_once(
    clock: Clock, crowd: Crowd, settings: Any
) -> None:
    settings.TOURNAMENT_ENTRIES_AT_ONCE = 2
    (person,) = crowd(1)
    made = [services.create(None, rules(clock, name=f"Swiss {n}")) for n in range(3)]
    services.join(made[0], person)
    services.join(made[1], person)
    with pytest.raises(services.ServiceError) as refused:
        services.join(made[2], person)
    assert str(refused.value) == (
        "You are in 2 tournaments that are not over yet: leave one, or wait until one ends, "
        "before you join another."
    )
    services.withdraw(made[0], person)
    services.join(made[2], person)


@pytest.mark.django_db
def test_an_arena_skips_someone_at_a_live_table_elsewhere_until_they_are_free(
    clock: Clock, crowd: Crowd
) -> None:
    people = crowd(4)
    busy, friend = people[0], crowd(1)[0]  # the first entrant: seated first
    tournament = entered(arena(clock, "Busy Bake"), people)
    elsewhere = seat_people("midnight-bakery", [busy, friend], pace=Game.Pace.FAST, rated=False)

    def sweep_with_everyone_here() -> Tournament:
        for person in people:
            services.here(tournament.pk, person.pk)
        return swept(tournament)

    clock.forward(61)
    sweep_with_everyone_here()
    (table,) = running_tables(tournament)
    seated = Entrant.objects.filter(pk__in=table.people).values_list("user_id", flat=True)
    assert busy.pk not in seated  # playing elsewhere: never at two live tables at once
    play_out(elsewhere, [busy, friend], seed=1)
    play_table(table)
    clock.forward(5)
    sweep_with_everyone_here()
    (table,) = running_tables(tournament)
    seated = Entrant.objects.filter(pk__in=table.people).values_list("user_id", flat=True)
    assert busy.pk in seated  # free now, and the longest waiting
