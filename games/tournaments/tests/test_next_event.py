"""The lobby's next event: the public tournament that starts soonest, with its countdown (words
drawn on the server, counted on by tournament.js) and a link to its page, in one query however
many joined."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from accounts.models import User
from games.tournaments import services
from games.tournaments.tests.conftest import entered, rules
from tests.conftest import client_for
from tests.support.clock import Clock

pytestmark = pytest.mark.django_db

Crowd = Callable[[int], list[User]]


def next_event(page: str) -> str:
    """The lobby's next-event box ("" if it has none)."""
    if 'id="next-event"' not in page:
        return ""
    return page.split('id="next-event"', 1)[1].split("</section>", 1)[0]


def lobby() -> str:
    return client_for(None).get("/").content.decode()


def test_the_lobby_shows_the_public_event_starting_soonest_with_its_countdown(
    clock: Clock, crowd: Crowd
) -> None:
    services.create(None, rules(clock, name="Later Swiss", starts_at=clock() + timedelta(days=2)))
    private = services.create(None, rules(clock, name="Friends only", private=True))
    soon = entered(
        services.create(
            None,
            rules(
                clock,
                name="Evening arena",
                format="arena",
                pace="fast",
                minutes=45,
                starts_at=clock() + timedelta(minutes=42),
            ),
        ),
        crowd(2),
    )
    box = next_event(lobby())
    assert f'href="/tournaments/{soon.pk}/"' in box and "Evening arena" in box
    assert "Midnight Bakery: an arena of 45 minutes, fast" in box
    assert "starts in 42 min" in box  # the words without the script
    assert f'data-at="{int(soon.starts_at.timestamp() * 1000)}"' in box
    assert "2 in so far" in box
    assert "Later Swiss" not in box and private.name not in box


def test_a_started_or_cancelled_event_is_not_the_next_one(clock: Clock, crowd: Crowd) -> None:
    tournament = entered(services.create(None, rules(clock, name="Starting Swiss")), crowd(3))
    assert "Starting Swiss" in next_event(lobby())
    clock.forward(61)
    services.start(tournament)
    assert next_event(lobby()) == ""


def lobby_queries() -> int:
    with CaptureQueriesContext(connection) as ctx:
        assert client_for(None).get("/").status_code == 200
    return len(ctx.captured_queries)


def test_the_lobby_costs_the_same_queries_however_many_joined_the_next_event(
    clock: Clock, crowd: Crowd
) -> None:
    tournament = services.create(None, rules(clock, name="Big Swiss"))
    entered(tournament, crowd(1))
    one = lobby_queries()
    entered(tournament, crowd(12))
    assert re.search(r"13 in so far", next_event(lobby()))
    assert lobby_queries() == one
