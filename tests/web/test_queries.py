"""Pages cost the same number of queries however many tables, seats, players or moves they show."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from accounts.models import User
from games import services
from games.models import Game
from tests.conftest import client_for
from tests.support.finished_games import finished_game

# backend: query counts are the database's.
pytestmark = [pytest.mark.django_db, pytest.mark.backend]


def queries(client: Client, url: str) -> int:
    """How many queries one GET of the page runs."""
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url)
    assert response.status_code == 200, url
    return len(ctx.captured_queries)


def grow(player: User, rival: User) -> None:
    """One more of everything a list page shows: an open table, a running one, a finished one."""
    services.create_game(rival, "midnight-bakery", 3)
    game = services.create_game(player, "cakehalla", 2)
    services.add_bot(game, player, "random")
    services.start(game, player)
    finished_game([player, rival])


@pytest.mark.parametrize(
    "url",
    [
        "/",
        "/games/history/",
        "/leaderboards/",
        "/leaderboards/midnight-bakery/?bots=1",
        "/u/alice/",
        "/stats/",
    ],
)
def test_a_list_page_costs_the_same_with_one_or_three_of_each(
    player: User, rival: User, url: str
) -> None:
    client = client_for(player)
    grow(player, rival)
    one = queries(client, url)
    grow(player, rival)
    grow(player, rival)
    assert queries(client, url) == one


@pytest.mark.parametrize("kind", ["midnight-bakery", "cakehalla"])
def test_a_table_costs_the_same_with_two_or_four_seats(
    make_user: Callable[[str], User], kind: str
) -> None:
    host = make_user("host")

    def table(bots: int) -> str:
        game = services.create_game(host, kind, bots + 1)
        for _ in range(bots):
            services.add_bot(game, host, "random")
        services.start(game, host)
        return game.get_absolute_url()

    client = client_for(host)
    assert queries(client, table(1)) == queries(client, table(3))


def test_a_waiting_room_costs_the_same_with_one_or_four_seated(
    open_table: Game, player: User, make_user: Callable[[str], User]
) -> None:
    # Two tables: a page of the same table a moment later takes the presence read before it
    # (games/web/table_page.py), and this compares a first page with a first page.
    alone = services.create_game(player, "midnight-bakery", 4)
    full = services.create_game(player, "midnight-bakery", 4)
    for name in ("b", "c", "d"):
        services.join(full, make_user(name))
    client = client_for(player)
    assert queries(client, full.get_absolute_url()) == queries(client, alone.get_absolute_url())


def test_a_replay_costs_the_same_at_the_first_and_the_last_move(player: User, rival: User) -> None:
    game = finished_game([player, rival])
    client = Client()
    first = queries(client, f"/games/{game.pk}/replay/?move=0")
    assert queries(client, f"/games/{game.pk}/replay/?move={game.moves}") == first
    assert first <= 4
