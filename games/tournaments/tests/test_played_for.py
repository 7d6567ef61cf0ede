"""A tournament's table names its tournament and round, links back to it, and offers no
rematch beside it: "Back to <tournament>" where another table offers "Play again"."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from accounts.models import User
from games import services as tables
from games.boards import render_board
from games.services import ServiceError
from games.tournaments import services
from games.tournaments.tests.conftest import entered, play_table, rules, running_tables, swept
from tests.conftest import client_for
from tests.support.clock import Clock

Crowd = Callable[[int], list[User]]

pytestmark = pytest.mark.django_db


def test_a_tournament_table_names_its_round_and_leads_back_instead_of_a_rematch(
    clock: Clock, crowd: Crowd
) -> None:
    people = crowd(3)
    tournament = entered(services.create(None, rules(clock, name="Sunday Swiss")), people)
    clock.forward(61)
    tournament = swept(tournament)
    (table,) = running_tables(tournament)
    assert table.game is not None
    link = f'<a href="{tournament.get_absolute_url()}">Round 1 of Sunday Swiss</a>'
    running = client_for(people[0]).get(table.game.get_absolute_url()).content.decode()
    assert link in running

    game = play_table(table)
    page = client_for(people[0]).get(game.get_absolute_url()).content.decode()
    assert link in page
    board = render_board(game, people[0])
    assert "Play again" not in board
    assert f'href="{tournament.get_absolute_url()}">Back to Sunday Swiss</a>' in board
    assert "so it offers no rematch" in board

    with pytest.raises(ServiceError, match="played for Sunday Swiss"):
        tables.rematch(game, people[0])
    refused = client_for(people[1]).post(f"/games/{game.pk}/rematch/", HTTP_HX_REQUEST="true")
    assert refused.status_code == 403
    assert tables.current_rematch(game) is None  # nothing changed


def test_an_arena_table_names_its_tournament(clock: Clock, crowd: Crowd) -> None:
    people = crowd(3)
    arena = rules(clock, name="Hourly Arena", format="arena", pace="fast", minutes=10)
    tournament = entered(services.create(None, arena), people)
    clock.forward(61)
    for person in people:
        services.here(tournament.pk, person.pk)
    tournament = swept(tournament)
    (table,) = running_tables(tournament)
    assert table.game is not None
    page = client_for(people[0]).get(table.game.get_absolute_url()).content.decode()
    assert f'<a href="{tournament.get_absolute_url()}">Table 1 of Hourly Arena</a>' in page


def test_a_tournament_table_names_its_round_in_each_viewers_language(
    clock: Clock, crowd: Crowd
) -> None:
    """The event is read once a version for every viewer (games/boards/shared.Event): its words
    are said in each viewer's own language, whoever asked first."""
    people = crowd(3)
    for person, language in zip(people, ["fr", "en", "de"], strict=True):
        person.language = language
        person.save(update_fields=["language"])
    tournament = entered(services.create(None, rules(clock, name="Sunday Swiss")), people)
    clock.forward(61)
    (table,) = running_tables(swept(tournament))
    assert table.game is not None
    url = table.game.get_absolute_url()
    said = [client_for(person).get(url).content.decode() for person in people]
    names = ["Ronde 1 de Sunday Swiss", "Round 1 of Sunday Swiss", "Runde 1 von Sunday Swiss"]
    for page, words in zip(said, names, strict=True):
        assert f'<a href="{tournament.get_absolute_url()}">{words}</a>' in page
