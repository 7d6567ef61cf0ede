"""The tournament page's buttons refuse in words and change nothing: joining twice, a Swiss
that started, entry conditions, a full event, withdrawing without the confirm step or from an
event one is not in, pausing a Swiss; and forged posts: garbage ids, a standings or pairing
post that does not exist, a GET where a POST belongs, a POST without its CSRF token."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client

from accounts.models import Rating, User
from games.tournaments import services
from games.tournaments.models import Entrant, Round, Table, Tournament
from games.tournaments.tests.conftest import entered, rules, swept
from games.tournaments.tests.test_pages import text_of
from tests.conftest import client_for
from tests.support.clock import Clock

Crowd = Callable[[int], list[User]]

pytestmark = pytest.mark.django_db


def state(tournament: Tournament) -> tuple[Any, ...]:
    """Everything a refused post must leave as it was."""
    tournament.refresh_from_db()
    entrants = sorted(
        Entrant.objects.filter(tournament=tournament).values_list(
            "user_id", "withdrawn", "paused", "points"
        )
    )
    return (
        tournament.version,
        tournament.status,
        tournament.current_round,
        entrants,
        Round.objects.filter(tournament=tournament).count(),
        Table.objects.filter(tournament=tournament).count(),
    )


def refused(
    tournament: Tournament, client: Client, path: str, status: int, words: str, **data: str
) -> None:
    """The post is answered with this status and these words, and nothing changes."""
    before = state(tournament)
    response = client.post(f"/tournaments/{tournament.pk}/{path}", data)
    assert response.status_code == status, response.content[:300]
    assert words in text_of(response.content)
    assert state(tournament) == before


def test_joining_twice(clock: Clock, crowd: Crowd) -> None:
    (person,) = crowd(1)
    tournament = entered(services.create(None, rules(clock)), [person])
    refused(tournament, client_for(person), "join/", 400, "You are already in this tournament.")


def test_joining_a_swiss_after_it_started(clock: Clock, crowd: Crowd) -> None:
    people = crowd(4)
    tournament = swept(entered(services.create(None, rules(clock)), people[:3]))
    clock.forward(61)
    tournament = swept(tournament)
    assert tournament.status == Tournament.Status.RUNNING
    client = client_for(people[3])
    page = text_of(client.get(tournament.get_absolute_url()).content)
    assert "You cannot join: This Swiss has started: it takes no new entrants." in page
    refused(tournament, client, "join/", 400, "This Swiss has started")


def test_joining_outside_the_rating_range(clock: Clock, crowd: Crowd) -> None:
    (person,) = crowd(1)
    tournament = services.create(None, rules(clock, rating_min=1800))
    Rating.objects.create(
        user=person, kind="midnight-bakery", mu=25, sigma=2, ordinal=19, rating=1500, games=12
    )
    refused(tournament, client_for(person), "join/", 403, "is below this tournament's lowest")


def test_joining_a_full_tournament(clock: Clock, crowd: Crowd) -> None:
    people = crowd(4)
    tournament = entered(services.create(None, rules(clock, max_entrants=3)), people[:3])
    refused(tournament, client_for(people[3]), "join/", 400, "This tournament is full")


def test_joining_a_private_tournament_without_its_link_finds_nothing(
    clock: Clock, crowd: Crowd
) -> None:
    maker, outsider = crowd(2)
    tournament = services.create(maker, rules(clock, private=True))
    refused(tournament, client_for(outsider), "join/", 404, "We could not find that tournament")
    refused(
        tournament,
        client_for(outsider),
        "join/",
        404,
        "We could not find that tournament",
        invite="no",
    )


def test_withdrawing_without_confirming(clock: Clock, crowd: Crowd) -> None:
    (person,) = crowd(1)
    tournament = entered(services.create(None, rules(clock)), [person])
    refused(tournament, client_for(person), "withdraw/", 400, "Confirm that you want to leave")


def test_withdrawing_from_a_tournament_one_is_not_in(clock: Clock, crowd: Crowd) -> None:
    person, other = crowd(2)
    tournament = entered(services.create(None, rules(clock)), [person])
    client = client_for(other)
    refused(tournament, client, "withdraw/", 400, "You are not in this tournament.", confirm="yes")
    # Someone else's entry is named nowhere in the post: only one's own is ever touched.
    refused(
        tournament,
        client,
        "withdraw/",
        400,
        "You are not in this tournament.",
        confirm="yes",
        user=str(person.pk),
        entrant=str(Entrant.objects.get(user=person).pk),
    )


def test_pausing_a_swiss_and_resuming_without_a_pause(clock: Clock, crowd: Crowd) -> None:
    (person,) = crowd(1)
    tournament = entered(services.create(None, rules(clock)), [person])
    client = client_for(person)
    refused(tournament, client, "pause/", 400, "Only an arena can be paused")
    refused(tournament, client, "resume/", 400, "You are not paused.")


def test_a_button_of_a_tournament_that_is_over(clock: Clock, crowd: Crowd) -> None:
    (person,) = crowd(1)
    tournament = entered(services.create(None, rules(clock)), [person])
    clock.forward(61)
    tournament = swept(tournament)  # one person: too few for a table
    assert tournament.status == Tournament.Status.CANCELLED
    refused(tournament, client_for(person), "withdraw/", 400, "was cancelled", confirm="yes")


@pytest.mark.parametrize(
    "path",
    ["999999/join/", "0/join/", "999999/withdraw/", "abc/join/", "1x/withdraw/", "-1/pause/"],
)
def test_garbage_ids_find_nothing(crowd: Crowd, path: str) -> None:
    (person,) = crowd(1)
    assert client_for(person).post(f"/tournaments/{path}", {"confirm": "yes"}).status_code == 404
    assert client_for(person).get(f"/tournaments/{path.split('/')[0]}/").status_code == 404


@pytest.mark.parametrize(
    ("path", "status"),
    [
        ("", 405),  # the page itself takes no post
        ("standings/", 404),
        ("pair/", 404),
        ("round/", 404),
        ("tables/", 404),
        ("chat/log/", 405),
    ],
)
def test_posts_that_do_not_exist_change_nothing(
    clock: Clock, crowd: Crowd, path: str, status: int
) -> None:
    people = crowd(3)
    tournament = entered(services.create(None, rules(clock)), people)
    before = state(tournament)
    data = {"points": "99", "round": "1", "entrant": "1"}
    response = client_for(people[0]).post(f"/tournaments/{tournament.pk}/{path}", data)
    assert response.status_code == status
    assert state(tournament) == before


@pytest.mark.parametrize("path", ["join/", "withdraw/", "pause/", "resume/", "chat/"])
def test_a_button_asked_with_get_changes_nothing(clock: Clock, crowd: Crowd, path: str) -> None:
    (person,) = crowd(1)
    tournament = services.create(None, rules(clock))
    before = state(tournament)
    assert client_for(person).get(f"/tournaments/{tournament.pk}/{path}").status_code == 405
    assert state(tournament) == before


@pytest.mark.parametrize("path", ["join/", "withdraw/", "chat/"])
def test_a_post_without_its_csrf_token_is_refused(clock: Clock, crowd: Crowd, path: str) -> None:
    (person,) = crowd(1)
    tournament = services.create(None, rules(clock))
    client = Client(enforce_csrf_checks=True)
    client.force_login(person)
    before = state(tournament)
    response = client.post(f"/tournaments/{tournament.pk}/{path}", {"confirm": "yes"})
    assert response.status_code == 403
    assert state(tournament) == before
    assert not Tournament.objects.get().chat.exists()


def test_a_create_post_without_its_csrf_token_makes_nothing(crowd: Crowd) -> None:
    (person,) = crowd(1)
    client = Client(enforce_csrf_checks=True)
    client.force_login(person)
    assert client.post("/tournaments/new/", {"name": "Sneaky"}).status_code == 403
    assert not Tournament.objects.exists()
