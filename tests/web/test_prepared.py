"""The live path's prepared queries give exactly what their querysets give, in one query each,
and its prepared writes write exactly what the ORM's save and bulk_create write."""

from __future__ import annotations

import gc
import threading
import weakref
from typing import Any

import pytest
from django.db import DEFAULT_DB_ALIAS, DatabaseError, connection, connections, transaction
from django.db.models import F, QuerySet
from django.db.models.signals import pre_save
from django.db.transaction import TransactionManagementError
from django.test.utils import CaptureQueriesContext

from accounts.models import User
from games.models import Action, Game, Seat
from games.services import prepared

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


def stored_row(model: Any, pk: int) -> dict[str, Any]:
    """A row as the database holds it now (read through the ORM, as a dict)."""
    return model.objects.filter(pk=pk).values().get()


def no_orm(*args: Any, **kwargs: Any) -> None:
    """Stands in for the ORM's write where the short path must not fall back to it."""
    raise AssertionError("went through the ORM")


def test_saving_fields_writes_them_as_the_orm_save_does_in_one_query(
    running_game: Game, monkeypatch: pytest.MonkeyPatch
) -> None:
    game, twin = Game.objects.get(pk=running_game.pk), Game.objects.get(pk=running_game.pk)
    changes = {"moves": 7, "version": game.version + 1, "notices": [{"text": "Flour left"}]}
    for obj in (game, twin):
        for name, value in changes.items():
            setattr(obj, name, value)
        obj.finished_at = None
        obj.abort_reason = "not named, so not written"
    with CaptureQueriesContext(connection) as queries, monkeypatch.context() as patched:
        patched.setattr(Game, "save", no_orm)
        prepared.save_fields(game, [*changes, "finished_at"])
    assert len(queries) == 1 and queries[0]["sql"].startswith("UPDATE")
    mine = stored_row(Game, game.pk)
    Game.objects.filter(pk=game.pk).update(moves=0, notices=[], version=running_game.version)
    twin.save(update_fields=[*changes, "finished_at"])
    assert mine == stored_row(Game, game.pk)  # the ORM's save wrote the very same row
    assert mine["abort_reason"] == "" and mine["notices"] == [{"text": "Flour left"}]
    assert not game._state.adding and game._state.db == "default"


def test_saving_a_row_that_is_gone_fails_as_the_orm_save_does(running_game: Game) -> None:
    game = Game.objects.get(pk=running_game.pk)
    Game.objects.filter(pk=game.pk).delete()
    with pytest.raises(DatabaseError, match="did not affect any rows"):
        prepared.save_fields(game, ["moves"])
    with pytest.raises(DatabaseError, match="did not affect any rows"):
        game.save(update_fields=["moves"])


def test_a_listened_save_an_expression_and_an_attname_go_through_the_orm(
    running_game: Game, rival: User
) -> None:
    heard: list[Any] = []

    def listen(sender: Any, instance: Any, **kwargs: Any) -> None:
        heard.append(kwargs["update_fields"])

    game = Game.objects.get(pk=running_game.pk)
    pre_save.connect(listen, sender=Game)
    try:
        prepared.save_fields(game, ["moves"])
    finally:
        pre_save.disconnect(listen, sender=Game)
    assert heard == [frozenset({"moves"})]
    game.moves = F("moves") + 5
    prepared.save_fields(game, ["moves"])
    assert stored_row(Game, game.pk)["moves"] == running_game.moves + 5
    game.refresh_from_db()
    game.host_id = rival.pk
    prepared.save_fields(game, ["host_id"])  # named by its attribute, as save takes it too
    assert stored_row(Game, game.pk)["host_id"] == rival.pk


def test_inserting_actions_writes_the_rows_bulk_create_writes_and_sets_their_keys(
    running_game: Game, player: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    def log(start: int) -> list[Action]:
        return [
            Action(game=running_game, seq=start + i, seat=i, payload={"type": "keep", "n": i})
            for i in range(3)
        ] + [Action(game=running_game, seq=start + 3, seat=1, payload=[1], user=player, bot="")]

    mine, theirs = log(1000), log(2000)
    with CaptureQueriesContext(connection) as queries, monkeypatch.context() as patched:
        patched.setattr(QuerySet, "bulk_create", no_orm)
        prepared.insert_all(mine)
    Action.objects.bulk_create(theirs)
    assert len(queries) == 1 and queries[0]["sql"].startswith("INSERT")
    assert all(a.pk is not None and not a._state.adding for a in mine)
    rows = [stored_row(Action, a.pk) for a in mine]
    expected = [stored_row(Action, a.pk) for a in theirs]
    different = {"id", "seq", "created_at"}
    assert [{k: v for k, v in r.items() if k not in different} for r in rows] == [
        {k: v for k, v in r.items() if k not in different} for r in expected
    ]
    assert [r["seq"] for r in rows] == [1000, 1001, 1002, 1003]
    assert [r["created_at"] for r in rows] == [a.created_at for a in mine]
    assert all(a.created_at is not None for a in mine)


def test_inserting_a_row_with_its_key_set_goes_through_bulk_create(running_game: Game) -> None:
    taken = Action.objects.order_by("-pk").values_list("pk", flat=True).first() or 0
    row = Action(pk=taken + 50, game=running_game, seq=3000, seat=0, payload={})
    prepared.insert_all([row])
    assert stored_row(Action, taken + 50)["seq"] == 3000
    prepared.insert_all([])  # nothing to write is no query and no error


@pytest.mark.django_db(transaction=True)
def test_the_locked_game_and_its_seats_are_what_the_lock_and_the_seats_give(
    running_game: Game,
) -> None:
    with transaction.atomic():
        expected_game = prepared.LOCKED_GAME.get(running_game.pk)
        expected = prepared.seats_of(expected_game)
    with transaction.atomic():
        game, seats = prepared.locked_with_seats(running_game.pk)
    assert fields(game) == fields(expected_game)
    assert [fields(s) for s in seats] == [fields(s) for s in expected]
    assert [fields(s.user) for s in seats] == [fields(s.user) for s in expected]
    assert all(s.game is game for s in seats)
    with pytest.raises(TransactionManagementError):  # a lock needs a transaction
        prepared.locked_with_seats(running_game.pk)
    with transaction.atomic(), pytest.raises(Game.DoesNotExist):
        prepared.locked_with_seats(running_game.pk + 1000)


@pytest.mark.django_db(transaction=True)
def test_the_seats_come_from_after_the_lock_was_waited_for(running_game: Game) -> None:
    """A seat changed by whoever held the lock is read as they committed it, though the two
    statements were sent together while the lock was still held elsewhere."""
    if not connection.features.has_select_for_update:
        pytest.skip("SQLite has no row locks: a writer holds the whole database")
    holding, done = threading.Event(), threading.Event()
    found: dict[str, Any] = {}

    def hold_then_change() -> None:
        try:
            with transaction.atomic():
                prepared.LOCKED_GAME.get(running_game.pk)
                holding.set()
                wait_for_a_waiter(running_game.pk)
                Seat.objects.filter(game=running_game, position=0).update(stand_ins=3)
        finally:
            connection.close()
            done.set()

    holder = threading.Thread(target=hold_then_change)
    holder.start()
    assert holding.wait(10)
    with transaction.atomic():
        _game, seats = prepared.locked_with_seats(running_game.pk)
        found["stand_ins"] = next(s.stand_ins for s in seats if s.position == 0)
    holder.join(10)
    assert done.is_set()
    assert found["stand_ins"] == 3


def wait_for_a_waiter(game_id: int) -> None:
    """Until another session waits for a lock (the game row's): state, not a fixed time."""
    for _ in range(2000):
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
                " AND datname = current_database()"
            )
            if cursor.fetchone()[0]:
                return
        threading.Event().wait(0.01)
    raise AssertionError(f"nobody waited for game {game_id}'s lock")


@pytest.mark.django_db(transaction=True)
def test_a_finished_threads_connection_is_not_kept_by_its_compiled_queries(
    running_game: Game,
) -> None:
    """Each HTTP request runs in a thread of its own (asgiref's per-request executor), so each
    has its own connection object: what was compiled for it must go when it goes, or a server
    keeps every request's connection (and its compiled queries) for ever."""
    gone: list[weakref.ref[Any]] = []

    def request() -> None:
        try:
            prepared.seats_of(Game.objects.get(pk=running_game.pk))
            gone.append(weakref.ref(connections[DEFAULT_DB_ALIAS]))
        finally:
            connection.close()

    thread = threading.Thread(target=request)
    thread.start()
    thread.join(10)
    assert len(gone) == 1
    del thread
    gc.collect()
    assert gone[0]() is None
