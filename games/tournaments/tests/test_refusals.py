"""Bad input and odd moments get a sentence and change nothing (issue 39, point 6); the
moderator's removal and stop in admin; one pairing when two connections start a round at once."""

from __future__ import annotations

import threading
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection

from accounts.models import Rating, User
from games.tournaments import services
from games.tournaments.models import Entrant, Round, Table, Tournament
from games.tournaments.tests.conftest import entered, rules, running_tables, swept
from tests.conftest import client_for, needs_env
from tests.support.clock import Clock
from tests.support.groups import group

Crowd = Callable[[int], list[User]]


def unchanged(tournament: Tournament) -> tuple[Any, ...]:
    """What a refusal must leave as it was."""
    tournament.refresh_from_db()
    entrants = sorted(
        Entrant.objects.filter(tournament=tournament).values_list("user_id", "withdrawn", "paused")
    )
    return tournament.version, tournament.status, entrants


def refused(tournament: Tournament, act: Callable[[], object], words: str) -> None:
    """The act is refused with these words and nothing changes."""
    before = unchanged(tournament)
    with pytest.raises(services.ServiceError) as refusal:
        act()
    assert words in str(refusal.value)
    assert unchanged(tournament) == before


pytestmark = pytest.mark.django_db


def test_joining_twice(clock: Clock, crowd: Crowd) -> None:
    (person,) = crowd(1)
    tournament = entered(services.create(None, rules(clock)), [person])
    refused(tournament, lambda: services.join(tournament, person), "already in this tournament")


def test_joining_a_swiss_after_it_started(clock: Clock, crowd: Crowd) -> None:
    people = crowd(4)
    tournament = entered(services.create(None, rules(clock)), people[:3])
    clock.forward(61)
    tournament = swept(tournament)
    refused(tournament, lambda: services.join(tournament, people[3]), "Swiss has started")


def test_an_arena_takes_late_joiners_but_not_in_its_last_ten_minutes(
    clock: Clock, crowd: Crowd
) -> None:
    people = crowd(5)
    arena = rules(clock, format="arena", pace="fast", minutes=30)
    tournament = entered(services.create(None, arena), people[:3])
    clock.forward(61)
    tournament = swept(tournament)
    assert "You are in" in services.join(tournament, people[3])
    clock.forward(21 * 60)
    refused(tournament, lambda: services.join(tournament, people[4]), "less than 10 minutes")


@pytest.mark.parametrize(
    "condition,words",
    [
        ({"rating_min": 1600}, "rating (1500) is below this tournament's lowest, 1600"),
        ({"rating_max": 1400}, "rating (1500) is above this tournament's highest, 1400"),
        ({"games_min": 5}, "needs 5 rated games of Midnight Bakery: you have played 0"),
        ({"age_min_days": 7}, "an account at least 7 days old"),
    ],
)
def test_a_person_outside_the_entry_conditions(
    clock: Clock, crowd: Crowd, condition: dict[str, int], words: str
) -> None:
    (person,) = crowd(1)
    tournament = services.create(None, rules(clock, **condition))
    refused(tournament, lambda: services.join(tournament, person), words)


def test_the_entry_conditions_read_the_persons_rating_at_that_game(
    clock: Clock, crowd: Crowd
) -> None:
    (person,) = crowd(1)
    Rating.objects.create(
        user=person, kind="midnight-bakery", mu=30, sigma=2, ordinal=24, rating=1980, games=12
    )
    tournament = services.create(None, rules(clock, rating_min=1900, games_min=10))
    services.join(tournament, person)
    assert Entrant.objects.get(tournament=tournament, user=person).rating == 1980


def test_a_full_event(clock: Clock, crowd: Crowd) -> None:
    people = crowd(4)
    tournament = entered(services.create(None, rules(clock, max_entrants=3)), people[:3])
    refused(tournament, lambda: services.join(tournament, people[3]), "full (3 entrants)")


def test_a_private_event_without_its_link(clock: Clock, crowd: Crowd) -> None:
    (person,) = crowd(1)
    tournament = services.create(None, rules(clock, private=True))
    refused(tournament, lambda: services.join(tournament, person, "forged"), "need its link")
    assert "You are in" in services.join(tournament, person, tournament.invite)


def test_rejoining_after_withdrawing_from_a_running_event(clock: Clock, crowd: Crowd) -> None:
    people = crowd(4)
    arena = rules(clock, format="arena", pace="fast", minutes=30)
    tournament = entered(services.create(None, arena), people)
    clock.forward(61)
    tournament = swept(tournament)
    services.withdraw(tournament, people[0])
    refused(tournament, lambda: services.join(tournament, people[0]), "cannot join it again")
    refused(tournament, lambda: services.withdraw(tournament, people[0]), "left this tournament")


def test_withdrawing_or_pausing_when_not_in_it(clock: Clock, crowd: Crowd) -> None:
    (person,) = crowd(1)
    tournament = services.create(None, rules(clock))
    refused(tournament, lambda: services.withdraw(tournament, person), "not in this tournament")


def test_pausing_a_swiss_and_resuming_without_a_pause(clock: Clock, crowd: Crowd) -> None:
    people = crowd(3)
    swiss = entered(services.create(None, rules(clock)), people)
    refused(swiss, lambda: services.pause(swiss, people[0]), "Only an arena can be paused")
    arena = entered(
        services.create(None, rules(clock, format="arena", pace="fast", minutes=30)), people
    )
    refused(arena, lambda: services.resume(arena, people[0]), "not paused")
    assert "keep your points" in services.pause(arena, people[0])
    refused(arena, lambda: services.pause(arena, people[0]), "paused already")


def test_a_paused_arena_entrant_is_not_seated_until_back(clock: Clock, crowd: Crowd) -> None:
    people = crowd(4)
    arena = rules(clock, format="arena", pace="fast", minutes=30, seats=3)
    tournament = entered(services.create(None, arena), people)
    services.pause(tournament, people[0])
    clock.forward(61)
    for person in people:
        services.here(tournament.pk, person.pk)
    tournament = swept(tournament)
    paused = Entrant.objects.get(tournament=tournament, user=people[0])
    assert all(paused.pk not in t.people for t in running_tables(tournament))
    assert len(running_tables(tournament)) == 1


def test_a_change_to_an_event_that_is_over(clock: Clock, crowd: Crowd) -> None:
    (person,) = crowd(1)
    tournament = services.create(None, rules(clock))
    clock.forward(61)
    tournament = swept(tournament)  # nobody came: cancelled
    refused(tournament, lambda: services.join(tournament, person), "was cancelled")


@pytest.mark.parametrize(
    "changes,words",
    [
        ({"kind": "chess"}, "not on offer"),
        ({"seats": 9}, "seat 2 to 8 people"),
        ({"rounds": 0}, "1 to 20 rounds"),
        ({"format": "arena", "pace": "day1", "minutes": 30}, "played live"),
        ({"place_points": {"3": [0, 3, 6]}}, "never earns fewer"),
        ({"place_points": {"3": [6, 3]}}, "one number for each place"),
        ({"rating_min": 1600, "rating_max": 1500}, "above the highest"),
        ({"name": "  "}, "needs a name"),
    ],
)
def test_a_tournament_no_one_could_run_is_not_made(
    clock: Clock, crowd: Crowd, changes: dict[str, Any], words: str
) -> None:
    (person,) = crowd(1)
    with pytest.raises(services.ServiceError, match=words):
        services.create(person, rules(clock, **changes))
    assert not Tournament.objects.exists()


def test_a_start_in_the_past_is_refused(clock: Clock, crowd: Crowd) -> None:
    (person,) = crowd(1)
    with pytest.raises(services.ServiceError, match="in the past"):
        services.create(person, rules(clock, starts_at=clock() - timedelta(hours=1)))


# --- moderators in admin -----------------------------------------------------------------------


@pytest.fixture
def mod(make_user: Callable[[str], User]) -> User:
    user = make_user("mod")
    user.is_staff = True
    user.save()
    user.groups.add(group("Moderators"))
    return User.objects.get(pk=user.pk)


def test_a_moderator_removes_a_person_and_stops_a_tournament_in_admin(
    clock: Clock, crowd: Crowd, mod: User
) -> None:
    people = crowd(3)
    tournament = entered(services.create(None, rules(clock)), people)
    clock.forward(61)
    tournament = swept(tournament)
    admin = client_for(mod)
    entrant = Entrant.objects.get(tournament=tournament, user=people[0])
    asked = admin.post(
        "/admin/tournaments/entrant/",
        {"action": "remove_entrants", "_selected_action": [entrant.pk]},
    )
    assert asked.status_code == 200 and b"reason" in asked.content  # the form asks why
    entrant.refresh_from_db()
    assert not entrant.withdrawn
    admin.post(
        "/admin/tournaments/entrant/",
        {"action": "remove_entrants", "_selected_action": [entrant.pk], "reason": "Cheating."},
    )
    entrant.refresh_from_db()
    assert entrant.withdrawn and entrant.withdrawn_why == "removed"
    assert len(running_tables(tournament)) == 1  # their table plays on under its own rules
    admin.post(
        "/admin/tournaments/tournament/",
        {"action": "stop_tournaments", "_selected_action": [tournament.pk], "reason": "Spam."},
    )
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.STOPPED and tournament.stop_reason == "Spam."
    page = admin.get(f"/admin/tournaments/tournament/{tournament.pk}/change/")
    assert page.status_code == 200 and b'name="name"' not in page.content  # read only
    admin.post(f"/admin/tournaments/tournament/{tournament.pk}/change/", {"name": "Forged"})
    tournament.refresh_from_db()
    assert tournament.name == "Test Swiss"


def test_a_stopped_tournament_counts_no_more_tables(clock: Clock, crowd: Crowd) -> None:
    from games.tournaments.tests.conftest import play_table

    people = crowd(3)
    boss = User.objects.create_superuser(username="boss", password="a-long-baking-secret")
    tournament = entered(services.create(None, rules(clock)), people)
    clock.forward(61)
    tournament = swept(tournament)
    (table,) = running_tables(tournament)
    services.stop(tournament, boss, "Stopped for a test.")
    play_table(table)
    swept(tournament)
    table.refresh_from_db()
    assert not table.recorded
    assert sum(s.points for s in services.standings(tournament)) == 0


# --- one pairing, whoever asks ---------------------------------------------------------------


@needs_env("DATABASE_URL")
@pytest.mark.django_db(transaction=True)
def test_two_connections_starting_a_round_at_once_make_one_pairing(
    clock: Clock, crowd: Crowd
) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("two writers at once need PostgreSQL")
    people = crowd(9)
    tournament = entered(services.create(None, rules(clock)), people)
    clock.forward(61)
    barrier = threading.Barrier(2)
    started: list[bool] = []
    errors: list[BaseException] = []

    def start() -> None:
        from django.db import connections

        try:
            barrier.wait(timeout=10)
            started.append(services.start(tournament.pk))
        except BaseException as error:  # pragma: no cover (reported below)
            errors.append(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=start) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert errors == []
    assert sorted(started) == [False, True]
    assert Round.objects.filter(tournament=tournament).count() == 1
    assert Table.objects.filter(tournament=tournament).count() == 3
    seated = [e for t in Table.objects.filter(tournament=tournament) for e in t.people]
    assert len(seated) == len(set(seated)) == 9
    tournament.refresh_from_db()
    services.advance(tournament.pk)  # a third look pairs nothing more
    assert Round.objects.filter(tournament=tournament).count() == 1
