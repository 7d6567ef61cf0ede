"""The live path's lock and reads (services.base.lock, lock_with_seats, seats_in_order and the
sockets' read of a table): what they give, in how many queries, and when."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.db import connection, transaction
from django.db.transaction import TransactionManagementError
from django.test.utils import CaptureQueriesContext

from games.boards import shared
from games.models import Game, Seat
from games.services.base import lock, lock_with_seats, seats_in_order

pytestmark = pytest.mark.django_db


def fields(obj: Any) -> dict[str, Any]:
    """A model's loaded values, without its state."""
    return {k: v for k, v in vars(obj).items() if k != "_state"}


def test_the_seats_come_in_order_with_their_people_and_game_in_one_query(
    running_game: Game,
) -> None:
    game = Game.objects.get(pk=running_game.pk)
    expected = sorted(Seat.objects.filter(game=game), key=lambda s: (s.position, s.joined_at, s.pk))
    with CaptureQueriesContext(connection) as queries:
        seats = seats_in_order(game)
        names = [s.user.username for s in seats]  # the people came with them
        games = {id(s.game) for s in seats}  # and the game row they were read for
    assert len(queries) == 1
    assert [s.pk for s in seats] == [s.pk for s in expected]
    assert names == [s.user.username for s in expected] and games == {id(game)}
    assert seats_in_order(Game(pk=running_game.pk + 1000)) == []


@pytest.mark.django_db(transaction=True)
def test_the_lock_is_taken_only_inside_a_transaction(running_game: Game) -> None:
    with transaction.atomic(), CaptureQueriesContext(connection) as queries:
        locked = lock(running_game.pk)
    assert locked.pk == running_game.pk and len(queries) == 1
    if connection.features.has_select_for_update:
        assert "FOR UPDATE" in queries[-1]["sql"]
    with pytest.raises(TransactionManagementError):
        lock(running_game.pk)


@pytest.mark.django_db(transaction=True)
def test_the_locked_game_and_its_seats_are_what_the_lock_and_the_seats_give(
    running_game: Game,
) -> None:
    with transaction.atomic():
        expected_game = lock(running_game.pk)
        expected = seats_in_order(expected_game)
    with transaction.atomic(), CaptureQueriesContext(connection) as queries:
        game, seats = lock_with_seats(running_game.pk)
    assert len(queries) == 2  # the lock, then the seats
    assert fields(game) == fields(expected_game)
    assert [s.pk for s in seats] == [s.pk for s in expected]
    assert [fields(s.user) for s in seats] == [fields(s.user) for s in expected]
    assert all(s.game is game for s in seats)
    with pytest.raises(TransactionManagementError):  # a lock needs a transaction
        lock_with_seats(running_game.pk)
    with transaction.atomic(), pytest.raises(Game.DoesNotExist):
        lock_with_seats(running_game.pk + 1000)


@pytest.mark.django_db(transaction=True)
def test_the_seats_come_from_after_the_lock_was_waited_for(running_game: Game) -> None:
    """A seat changed by whoever held the lock is read as they committed it."""
    if not connection.features.has_select_for_update:
        pytest.skip("SQLite has no row locks: a writer holds the whole database")
    holding, done = threading.Event(), threading.Event()
    found: dict[str, Any] = {}

    def hold_then_change() -> None:
        try:
            with transaction.atomic():
                lock(running_game.pk)
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
        _game, seats = lock_with_seats(running_game.pk)
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


def test_a_sockets_read_is_the_game_with_its_host_and_its_seats(running_game: Game) -> None:
    with CaptureQueriesContext(connection) as queries:
        table = shared.table_at(running_game.pk)
        host = table.game.host.username
        people = [s.user.username for s in table.seats]
    assert host == running_game.host.username
    assert people == [s.user.username for s in seats_in_order(running_game)]
    assert all(s.game is table.game for s in table.seats)
    tables = [q["sql"].split(" FROM ")[1].split()[0] for q in queries if " FROM " in q["sql"]]
    assert tables.count('"games_game"') == 1 and tables.count('"games_seat"') == 1
    with pytest.raises(Game.DoesNotExist):
        shared.table_at(running_game.pk + 1000)


def loaded(obj: Any) -> dict[str, Any]:
    """A model's field values, without its state or the related rows cached on it."""
    return {k: v for k, v in fields(obj).items() if not k.startswith("_")}


@pytest.mark.parametrize("started", [True, False], ids=["running", "waiting room"])
def test_the_plain_sql_reads_give_the_rows_the_orm_gives(
    player: Any, rival: Any, started: bool
) -> None:
    """games/services/rows.py against the ORM, value for value: dates aware, JSON decoded,
    booleans as booleans, the seats in the ORM's order (unplaced ones too) with their people."""
    from games import services
    from games.services import rows

    game = services.create_game(player, "midnight-bakery", 3)
    services.join(game, rival)
    services.add_bot(game, player, "greedy")
    if started:
        services.start(game, player)
    orm_game = Game.objects.select_related("host").get(pk=game.pk)
    orm_seats = list(
        Game.objects.get(pk=game.pk)
        .seats.select_related("user")
        .order_by("position", "joined_at", "pk")
    )
    with transaction.atomic():
        assert loaded(rows.locked_game(game.pk)) == loaded(orm_game)
    read = rows.game_with_host(game.pk)
    assert loaded(read) == loaded(orm_game) and loaded(read.host) == loaded(orm_game.host)
    seats = rows.seats_of(read)
    assert [loaded(s) for s in seats] == [loaded(s) for s in orm_seats]
    assert [loaded(s.user) for s in seats] == [loaded(s.user) for s in orm_seats]
    assert all(s.game is read for s in seats)
    with pytest.raises(Game.DoesNotExist):
        rows.game_with_host(game.pk + 1000)


def test_the_undocumented_orm_methods_the_plain_sql_reads_use_still_exist() -> None:
    """rows.py finds a column's converters as the ORM's compiler does, through methods Django
    does not document: a release that renames one fails here (its rows are compared with the
    ORM's above)."""
    from games.services import rows

    for owner, names in rows.INTERNALS_USED.items():
        for name in names:
            assert callable(getattr(owner, name, None)), f"{owner.__name__}.{name} is gone"


def test_the_plain_sql_of_a_thread_ends_with_the_thread() -> None:
    """Each request runs in a thread of its own: what rows.py writes for its connection must go
    with it, or every request would leave its SQL behind."""
    import gc
    import weakref

    from django.db import connections

    from games.services import rows

    kept: list[weakref.ref[rows.Reads]] = []

    def a_request() -> None:
        kept.append(weakref.ref(rows.reads()))
        assert rows.reads() is kept[0]()  # written once for the thread
        connections.close_all()

    thread = threading.Thread(target=a_request)
    thread.start()
    thread.join()
    gc.collect()
    assert kept and kept[0]() is None
