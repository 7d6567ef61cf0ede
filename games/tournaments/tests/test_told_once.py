"""What a tournament tells a person of their tables: one "next table" notification at a time per
person and tournament, the latest replacing the one before (a 10-minute arena used to leave nine
unread)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from accounts.models import User
from games.notifications.models import Notification
from games.tournaments import services
from games.tournaments.models import Tournament
from games.tournaments.tests.conftest import entered, play_table, rules, running_tables, swept
from tests.support.clock import Clock

Crowd = Callable[[int], list[User]]


def tables_told(user: User, tournament: Tournament) -> list[Notification]:
    return list(
        Notification.objects.filter(recipient=user, key__startswith=f"tournament:{tournament.pk}:")
        .filter(text__contains="is ready")
        .order_by("pk")
    )


@pytest.mark.django_db
def test_an_arena_keeps_one_next_table_notification_a_person(clock: Clock, crowd: Crowd) -> None:
    people = crowd(3)
    arena = rules(clock, format="arena", pace="fast", minutes=30, seats=3)
    tournament = entered(services.create(None, arena), people)
    clock.forward(61)
    seated = 0
    for _ in range(3):
        for person in people:
            services.here(tournament.pk, person.pk)
        tournament = swept(tournament)
        (table,) = running_tables(tournament)
        seated += 1
        play_table(table)
        clock.forward(30)
    assert seated == 3
    for person in people:
        (kept,) = tables_told(person, tournament)  # not three piled up
        assert kept.text == f"Your next table in {tournament.name} is ready."
        assert kept.game_id == table.game_id  # the latest table, the one to go to
        assert kept.read_at is None
