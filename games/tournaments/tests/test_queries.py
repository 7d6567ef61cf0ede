"""A tournament's pages cost the same number of queries however many people entered: the
standings are one query, a page shows STANDINGS_PAGE lines of them (and the viewer's own line
wherever it stands), a round's tables are one query."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection
from django.db.models import F
from django.test import Client
from django.test.utils import CaptureQueriesContext

from accounts.models import User
from games.tournaments import services
from games.tournaments.models import Entrant, Tournament
from games.tournaments.pages import STANDINGS_PAGE
from games.tournaments.tests.conftest import entered, rules, swept
from games.tournaments.tests.test_pages import text_of
from tests.conftest import client_for
from tests.support.clock import Clock

Crowd = Callable[[int], list[User]]

# backend: query counts are the database's.
pytestmark = [pytest.mark.django_db, pytest.mark.backend]


def queries(client: Client, url: str) -> int:
    """How many queries one GET of the page runs."""
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url)
    assert response.status_code == 200, url
    return len(ctx.captured_queries)


def field(tournament: Tournament, count: int) -> list[User]:
    """`count` more entrants, made in bulk (what is measured is the reading), each with fewer
    points than the last from a game played; the tournament's version moves, as each join
    moves it."""
    start = User.objects.count()
    people = User.objects.bulk_create(
        [User(username=f"field{start + i}", password="!") for i in range(count)]
    )
    lowest = Entrant.objects.filter(tournament=tournament).count()
    Entrant.objects.bulk_create(
        [
            Entrant(
                tournament=tournament,
                user=person,
                rating=1500,
                points=10_000 - lowest - i,
                games=1,
            )
            for i, person in enumerate(people)
        ]
    )
    Tournament.objects.filter(pk=tournament.pk).update(version=F("version") + 1)
    return people


def test_a_tournament_page_costs_the_same_with_ten_or_a_hundred_and_thirty_entrants(
    clock: Clock, crowd: Crowd
) -> None:
    tournament = services.create(None, rules(clock))
    (me,) = field(tournament, 10)[-1:]
    client = client_for(me)
    url = tournament.get_absolute_url()
    few = queries(client, url)
    field(tournament, 120)
    assert queries(client, url) == few
    assert queries(client, f"{url}?page=3") <= few  # the same version: its board read once
    assert queries(client_for(None), url) <= few


def test_a_running_swiss_page_costs_the_same_with_two_or_six_tables(
    clock: Clock, crowd: Crowd
) -> None:
    small = swept(entered(services.create(None, rules(clock, seats=4)), crowd(8)))
    large = swept(entered(services.create(None, rules(clock, seats=4)), crowd(24)))
    clock.forward(61)
    small, large = swept(small), swept(large)
    assert small.tables.count() == 2 and large.tables.count() == 6
    viewer = client_for(Entrant.objects.filter(tournament=small).earliest("pk").user)
    other = client_for(Entrant.objects.filter(tournament=large).earliest("pk").user)
    assert queries(viewer, small.get_absolute_url()) == queries(other, large.get_absolute_url())


def test_the_list_page_costs_the_same_with_one_or_three_of_each(clock: Clock, crowd: Crowd) -> None:
    (maker,) = crowd(1)

    def grow() -> None:
        """One more of each: the site's, a person's, one the viewer entered, one finished."""
        services.create(None, rules(clock))
        entered(services.create(crowd(1)[0], rules(clock)), [maker])
        finished = entered(services.create(None, rules(clock, seats=2, rounds=1)), crowd(2))
        Tournament.objects.filter(pk=finished.pk).update(status=Tournament.Status.FINISHED)
        Entrant.objects.filter(tournament=finished).update(place=1)

    client = client_for(maker)
    grow()
    one = queries(client, "/tournaments/")
    grow()
    grow()
    assert queries(client, "/tournaments/") == one


def test_a_page_shows_fifty_lines_and_your_own_line_wherever_you_stand(
    clock: Clock, crowd: Crowd
) -> None:
    tournament = services.create(None, rules(clock))
    people = field(tournament, 130)
    me = people[-1]
    html = client_for(me).get(tournament.get_absolute_url()).content.decode()
    assert html.count("<tr data-user=") == STANDINGS_PAGE
    page = text_of(html.encode())
    assert "You are in: 130th of 130" in page
    assert "Places 1\u201350 of 130" in page
    last = client_for(me).get(f"{tournament.get_absolute_url()}?page=3").content.decode()
    assert last.count("<tr data-user=") == 30 and f'<tr data-user="{me.pk}"' in last
    # A page number past the end shows the last page; garbage the first.
    for asked, shown in (("99", "Places 101\u2013130"), ("x", "Places 1\u201350")):
        answer = client_for(me).get(f"{tournament.get_absolute_url()}?page={asked}")
        assert shown in text_of(answer.content)


def test_a_swiss_round_of_six_tables_costs_two_queries_a_table_more_than_two(
    clock: Clock, crowd: Crowd, settings: Any
) -> None:
    """The pairing's transaction holds every page until it commits: its rows are made a few
    queries for all the tables (games.services.seat_tables), not a table after another."""
    settings.BOT_MOVES = "after-commit"  # no bot sits at these tables; nothing runs inline

    def start_queries(count: int) -> int:
        people = crowd(count)
        tournament = entered(services.create(None, rules(clock, seats=4, pace="relaxed")), people)
        clock.forward(61)
        for person in people:
            services.here(tournament.pk, person.pk)
        with CaptureQueriesContext(connection) as ctx:
            assert services.start(tournament.pk)
        assert tournament.tables.count() == count // 4
        return len(ctx.captured_queries)

    two, six = start_queries(8), start_queries(24)
    assert six - two <= 2 * 4  # each table's dealt version saved, its people's table set


def test_the_standings_are_read_and_drawn_once_a_version_for_every_page_asked(
    clock: Clock, crowd: Crowd
) -> None:
    """A page request shares the board and the live part its version's sockets share
    (shared.py): a crowd asking for the page of 1,000 entrants reads the standings once."""
    from games.tournaments import shared

    tournament = services.create(None, rules(clock))
    people = field(tournament, 120)
    url = tournament.get_absolute_url()
    first = queries(client_for(people[5]), url)
    again = queries(client_for(people[6]), url)
    assert again == first - 2  # neither the standings nor the board's own row read again
    assert shared.render_counts == {"rendered": 1, "shared": 1}
    services.join(tournament, crowd(1)[0], tournament.invite)  # a new version
    page = client_for(people[7]).get(url).content.decode()
    assert "Places 1\u201350 of 121" in text_of(page.encode())
    assert queries(client_for(None), f"{url}?part=live") < first
    assert shared.render_counts == {"rendered": 2, "shared": 2}


def test_a_fresh_tables_page_reads_its_seats_once_for_all_its_people(
    clock: Clock, crowd: Crowd, settings: Any
) -> None:
    """A Swiss round's start sends each of its people to their new table's page at once: the
    first page of a table reads its seats and presence, the others of its version take that
    read (games/web/table_page.py), and the event's line is one narrow query."""
    settings.BOT_MOVES = "after-commit"
    people = crowd(8)
    tournament = entered(services.create(None, rules(clock, seats=4, pace="relaxed")), people)
    clock.forward(61)
    for person in people:
        services.here(tournament.pk, person.pk)
    assert services.start(tournament.pk)
    table = tournament.tables.select_related("game").earliest("number")
    seated = Entrant.objects.filter(pk__in=table.people).select_related("user")
    assert table.game is not None
    url = table.game.get_absolute_url()
    pages = [client_for(entrant.user) for entrant in seated]
    counts = [queries(page, url) for page in pages]
    # The game, the session, the user, the menu's badge (no chat lines: the fresh table's chat
    # never had one, Game.chatted; nor whom they muted: they never muted anyone,
    # User.muted_someone); the first page also the seats, who is at the table and the event's
    # line (shared.Event).
    assert counts == [7, 4, 4, 4]
    for page in pages:  # each page still names its round, the line read by the first
        assert "Round 1 of Test Swiss" in text_of(page.get(url).content)
