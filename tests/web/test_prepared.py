"""The live path's prepared queries give exactly what their querysets give, in one query each."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection, transaction
from django.db.transaction import TransactionManagementError
from django.test.utils import CaptureQueriesContext

from games import prepared
from games.models import Game, Seat

pytestmark = pytest.mark.django_db


def fields(obj: Any) -> dict[str, Any]:
    """A model's loaded values (what from_db set), without its state."""
    return {k: v for k, v in vars(obj).items() if k != "_state"}


def test_the_seats_are_the_querysets_seats_with_their_people_and_game(
    running_game: Game,
) -> None:
    game = Game.objects.get(pk=running_game.pk)
    expected = list(game.seats.select_related("user").order_by("position", "joined_at", "pk"))
    with CaptureQueriesContext(connection) as queries:
        seats = prepared.seats_of(game)
        again = prepared.seats_of(game)  # compiled once, run again
        names = [s.user.username for s in seats]  # the people came with them
        games = {id(s.game) for s in seats}  # and the game row they were read for
    assert len(queries) == 2
    assert [fields(s) for s in seats] == [fields(s) for s in expected]
    assert [fields(s.user) for s in seats] == [fields(s.user) for s in expected]
    assert [fields(s) for s in again] == [fields(s) for s in expected]
    assert names == [s.user.username for s in expected] and games == {id(game)}
    assert all(not s._state.adding and s._state.db == "default" for s in seats)
    # Models that save and reload as any other (a later write sees the row it came from).
    seats[0].stand_ins = 2
    seats[0].save(update_fields=["stand_ins"])
    assert Seat.objects.get(pk=seats[0].pk).stand_ins == 2


def test_a_game_is_the_row_as_stored_and_a_missing_one_does_not_exist(running_game: Game) -> None:
    stored = Game.objects.get(pk=running_game.pk)
    assert fields(prepared.GAME.get(stored.pk)) == fields(stored)
    with pytest.raises(Game.DoesNotExist):
        prepared.GAME.get(stored.pk + 1000)
    assert prepared.seats_of(Game(pk=stored.pk + 1000)) == []


@pytest.mark.django_db(transaction=True)
def test_the_lock_is_taken_only_inside_a_transaction(running_game: Game) -> None:
    with transaction.atomic(), CaptureQueriesContext(connection) as queries:
        locked = prepared.LOCKED_GAME.get(running_game.pk)
    assert locked.pk == running_game.pk
    if connection.features.has_select_for_update:
        assert "FOR UPDATE" in queries[-1]["sql"]
    with pytest.raises(TransactionManagementError):
        prepared.LOCKED_GAME.get(running_game.pk)


def test_a_query_of_more_than_its_one_parameter_is_refused(running_game: Game) -> None:
    two = prepared.Prepared(lambda pk: Game.objects.filter(pk=pk, moves__gte=0))
    with pytest.raises(ValueError, match="one parameter"):
        two.get(running_game.pk)
