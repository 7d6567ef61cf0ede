"""games/services/seating.py: seat_tables, many tables seated at once (a Swiss round's), each as
seat_people seats one, its rows made a few queries for all."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from accounts.models import User
from games import services
from games.friends import services as friendship
from games.models import Game
from games.services.dealing import draw_positions

# backend: the query counts and the blocks' refusals are the database's.
pytestmark = [pytest.mark.django_db, pytest.mark.backend]

MakeUser = Callable[[str], User]


def people(make_user: MakeUser, prefix: str, count: int) -> list[User]:
    return [make_user(f"{prefix}{i}") for i in range(count)]


def test_each_table_is_seated_as_seat_people_seats_one(make_user: MakeUser) -> None:
    first, second = people(make_user, "a", 3), people(make_user, "b", 2)
    games = services.seat_tables(
        "cakehalla", [first, second], pace=Game.Pace.FAST, bots=[["random"], ["random"] * 2]
    )
    assert len(games) == 2
    for game, its_people, bots in zip(games, [first, second], [1, 2], strict=True):
        game.refresh_from_db()
        assert game.status == Game.Status.RUNNING and game.rated and game.snapshot is not None
        assert game.pace == Game.Pace.FAST and game.host_id == its_people[0].pk
        joined = list(game.seats.order_by("pk"))  # joining order: the people, then the bots
        assert [s.user_id for s in joined[: len(its_people)]] == [p.pk for p in its_people]
        assert [s.bot for s in joined[len(its_people) :]] == ["random"] * bots
        assert len({s.user_id for s in joined}) == len(joined) == game.capacity
        positions = draw_positions(game.seed, len(joined))
        assert [s.position for s in joined] == positions
        assert all(s.bank > 0 for s in joined)  # a fast clock's bank, as deal gives it


def test_a_block_at_one_table_makes_no_table_at_all(make_user: MakeUser) -> None:
    first, second = people(make_user, "a", 4), people(make_user, "b", 4)
    friendship.block(second[3], second[1])
    with pytest.raises(services.NotAllowed, match="You block someone at this table"):
        services.seat_tables("midnight-bakery", [first, second])
    assert not Game.objects.exists()


def test_someone_at_two_tables_or_a_table_too_small_makes_nothing(make_user: MakeUser) -> None:
    first, second = people(make_user, "a", 4), people(make_user, "b", 4)
    with pytest.raises(services.ServiceError, match="sits once"):
        services.seat_tables("midnight-bakery", [first, [*second[:3], second[0]]])
    with pytest.raises(services.ServiceError, match="seats 2 to"):
        services.seat_tables("cakehalla", [first[:2], second[:1]])
    with pytest.raises(services.ServiceError, match="no 'nobody' bot"):
        services.seat_tables("cakehalla", [first[:2]], bots=[["nobody"]])
    with pytest.raises(services.ServiceError, match="not on offer"):
        services.seat_tables("no-such-game", [first[:2]])
    assert services.seat_tables("no-such-game", []) == []
    assert not Game.objects.exists()


def test_six_tables_cost_one_query_a_table_more_than_two(
    make_user: MakeUser, settings: Any
) -> None:
    settings.BOT_MOVES = "after-commit"  # the bots' moves are the runner's, after the commit
    everyone = people(make_user, "p", 32)
    tables = [everyone[i : i + 4] for i in range(0, 32, 4)]

    def queries(count: int, of: list[list[User]]) -> int:
        with CaptureQueriesContext(connection) as ctx:
            assert len(services.seat_tables("midnight-bakery", of)) == count
        return len(ctx.captured_queries)

    two, six = queries(2, tables[:2]), queries(6, tables[2:])
    assert six - two == 4  # each table's dealt version saved (commit_version), nothing else
