"""A tournament's results outside its page: a person's profile (place, points, link), history
(the tournament and round of a finished game, and a filter to tournament games), the inbox
(its notifications lead to the tournament); each at a fixed number of queries."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from accounts.models import User
from games.notifications.models import Notification
from games.tournaments import services
from games.tournaments.models import Entrant, Tournament
from games.tournaments.tests.conftest import entered, play_table, rules, running_tables, swept
from tests.conftest import client_for
from tests.support.clock import Clock
from tests.support.finished_games import finished_game

Crowd = Callable[[int], list[User]]

pytestmark = pytest.mark.django_db


def finished_swiss(clock: Clock, people: list[User], name: str = "Test Swiss") -> Tournament:
    """A one-round Swiss of tables of two among these people, played to its end."""
    tournament = entered(services.create(None, rules(clock, name=name, seats=2, rounds=1)), people)
    clock.forward(61)
    tournament = swept(tournament)
    for table in running_tables(tournament):
        play_table(table)
    tournament = swept(tournament)
    assert tournament.status == Tournament.Status.FINISHED
    return tournament


def queries(client: Client, url: str) -> int:
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(url).status_code == 200
    return len(ctx.captured_queries)


def test_a_profile_lists_the_persons_tournaments_with_place_points_and_link(
    clock: Clock, crowd: Crowd
) -> None:
    people = crowd(4)
    tournament = finished_swiss(clock, people)
    mine = Entrant.objects.get(tournament=tournament, user=people[0])
    body = Client().get(f"/u/{people[0].username}/").content.decode()
    assert '<section class="panel" id="tournament-results">' in body
    assert f'<a href="{tournament.get_absolute_url()}">Test Swiss</a>' in body
    assert "of 4</td>" in body and f'<td class="num">{mine.points:g}</td>' in body


def test_a_private_tournament_shows_on_the_persons_own_profile_only(
    clock: Clock, crowd: Crowd
) -> None:
    maker, other = crowd(2)
    secret = rules(clock, name="Secret Swiss", private=True)
    hidden = entered(services.create(maker, secret), [maker])
    assert hidden.name in client_for(maker).get(f"/u/{maker.username}/").content.decode()
    assert hidden.name not in client_for(other).get(f"/u/{maker.username}/").content.decode()


def test_a_profile_costs_the_same_with_one_or_three_tournaments(clock: Clock, crowd: Crowd) -> None:
    people = crowd(2)
    finished_swiss(clock, people, "One")
    client = client_for(people[1])
    one = queries(client, f"/u/{people[0].username}/")
    finished_swiss(clock, people, "Two")
    finished_swiss(clock, people, "Three")
    assert queries(client, f"/u/{people[0].username}/") == one


def test_history_says_the_tournament_and_round_and_filters_to_tournament_games(
    clock: Clock, crowd: Crowd
) -> None:
    people = crowd(2)
    tournament = finished_swiss(clock, people)
    (table,) = tournament.tables.all()
    ordinary = finished_game([people[0]])
    everything = Client().get("/games/history/").content.decode()
    assert f'href="/games/{table.game_id}/"' in everything
    assert f'href="/games/{ordinary.pk}/"' in everything
    assert f'in <a href="{tournament.get_absolute_url()}">Test Swiss</a>, round 1' in everything
    only = Client().get("/games/history/?tournament=1").content.decode()
    assert f'href="/games/{table.game_id}/"' in only
    assert f'href="/games/{ordinary.pk}/"' not in only
    assert 'name="tournament" value="1" checked' in only


def test_history_costs_the_same_with_one_or_three_tournament_games(
    clock: Clock, crowd: Crowd
) -> None:
    people = crowd(2)
    finished_swiss(clock, people, "One")
    client = Client()
    one = queries(client, "/games/history/")
    finished_swiss(clock, people, "Two")
    finished_swiss(clock, people, "Three")
    assert queries(client, "/games/history/") == one


def test_the_inbox_shows_the_place_a_person_finished_with_a_link_to_the_tournament(
    clock: Clock, crowd: Crowd
) -> None:
    people = crowd(4)
    tournament = finished_swiss(clock, people)
    mine = Entrant.objects.get(tournament=tournament, user=people[0])
    told = Notification.objects.get(recipient=people[0], key=f"tournament:{tournament.pk}:place")
    assert told.kind == Notification.Kind.TOURNAMENT
    assert told.text.startswith(f"You finished {mine.place}")
    client = client_for(people[0])
    inbox = client.get("/games/inbox/").content.decode()
    assert f'<a href="/games/inbox/{told.pk}/">{told.text}</a>' in inbox
    opened = client.get(f"/games/inbox/{told.pk}/")
    assert opened.status_code == 302 and opened["Location"] == tournament.get_absolute_url()
