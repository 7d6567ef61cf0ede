"""A table's rows in plain SQL: the two reads every move and every push make.

Every move locks its game row and reads its seats with their people; every new version is read
back once per process for its sockets, with the table's host. Through the ORM each call compiles
its query again and builds the rows through its generic iterables: measured in process on
PostgreSQL, a move's lock, seats and writes took 3.2-3.5 ms against 1.2 ms with SQL written once,
and a table read 2.15 against 0.5 ms (make bench-web at 100 tables: +27% server CPU a Midnight
Bakery move, +10% a Cakehalla one). So the SQL of these two reads is written once per database
from the models' own description (the Model _meta API), and their rows become model instances
as the ORM makes them: each field's converters, then Model.from_db. That is Django's documented
API but for one reach, named in INTERNALS_USED: a column's converters are found as the ORM's own
compiler finds them (Field.get_col, then get_db_converters of the connection's operations and of
the column), methods Django does not document. A test reads both ways and compares them value
for value, and checks each of these names still exists
(tests/services/test_services_lock_and_seats.py); everything else goes through the ORM.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.backends.base.operations import BaseDatabaseOperations
from django.db.models import Field, Model
from django.db.models.expressions import Col

from accounts.models import User
from games.models import Game, Seat

M = TypeVar("M", bound=Model)
Converter = Callable[[object, Col, BaseDatabaseWrapper], object]  # (value, column, db)

# The undocumented ORM methods used below, by their owners (a test checks each still exists).
INTERNALS_USED: dict[type, tuple[str, ...]] = {
    Field: ("get_col",),
    BaseDatabaseOperations: ("get_db_converters",),
    Col: ("get_db_converters",),
}


@dataclass(frozen=True)
class Columns(Generic[M]):
    """One model's concrete columns as a SELECT lists them, and how each value is converted."""

    model: type[M]
    db: BaseDatabaseWrapper
    attnames: list[str]
    converters: list[tuple[Col, list[Converter]]]  # (the column expression, its converters)

    @classmethod
    def of(cls, model: type[M], db: BaseDatabaseWrapper) -> Columns[M]:
        fields: list[Field[object, object]] = list(model._meta.concrete_fields)
        table = model._meta.db_table
        converters = []
        for field in fields:
            col = field.get_col(table)
            found = [*db.ops.get_db_converters(col), *col.get_db_converters(db)]
            converters.append((col, found))
        return cls(model, db, [f.attname for f in fields], converters)

    def select(self, alias: str) -> str:
        """The columns of this model's table under `alias`, in the model's order."""
        quote = self.db.ops.quote_name
        fields = self.model._meta.concrete_fields
        return ", ".join(f"{alias}.{quote(f.column)}" for f in fields)

    def row(self, values: Sequence[object]) -> M:
        """The model instance of these column values, as the ORM would make it."""
        converted = []
        for value, (col, converters) in zip(values, self.converters, strict=True):
            for convert in converters:
                value = convert(value, col, self.db)
            converted.append(value)
        return self.model.from_db(self.db.alias, self.attnames, converted)

    def __len__(self) -> int:
        return len(self.attnames)


@dataclass(frozen=True)
class Reads:
    """The two reads' SQL for one database, written once."""

    db: BaseDatabaseWrapper
    game: Columns[Game]
    seat: Columns[Seat]
    user: Columns[User]
    lock_sql: str
    game_with_host_sql: str
    seats_sql: str

    @classmethod
    def written(cls, db: BaseDatabaseWrapper) -> Reads:
        game, seat, user = Columns.of(Game, db), Columns.of(Seat, db), Columns.of(User, db)
        quote = db.ops.quote_name
        games, seats, users = (quote(m._meta.db_table) for m in (Game, Seat, User))
        lock = " FOR UPDATE" if db.features.has_select_for_update else ""
        return cls(
            db,
            game,
            seat,
            user,
            f"SELECT {game.select('g')} FROM {games} g WHERE g.{quote('id')} = %s{lock}",
            f"SELECT {game.select('g')}, {user.select('h')} FROM {games} g"
            f" INNER JOIN {users} h ON h.{quote('id')} = g.{quote('host_id')}"
            f" WHERE g.{quote('id')} = %s",
            # As game.seats.select_related("user").order_by("position", "joined_at", "pk"):
            # each database puts an unplaced seat (a NULL position) where its ORM query would.
            f"SELECT {seat.select('s')}, {user.select('u')} FROM {seats} s"
            f" INNER JOIN {users} u ON u.{quote('id')} = s.{quote('user_id')}"
            f" WHERE s.{quote('game_id')} = %s"
            f" ORDER BY s.{quote('position')} ASC, s.{quote('joined_at')} ASC, s.{quote('id')} ASC",
        )


# Each thread has a connection of its own: its reads are written at its first use and end with the
# thread (a request's thread ends with the request; the push and bot threads keep theirs).
_local = threading.local()


def reads() -> Reads:
    """The reads of this thread's connection to the database."""
    db = connections[DEFAULT_DB_ALIAS]
    found: Reads | None = getattr(_local, "reads", None)
    if found is None or found.db is not db:
        found = _local.reads = Reads.written(db)
    return found


def game_row(sql: Reads, query: str, pk: int) -> tuple[Any, ...]:
    """The one row one of these reads' queries gives for game `pk`, or Game.DoesNotExist."""
    with sql.db.cursor() as cursor:
        cursor.execute(query, [pk])
        found: tuple[Any, ...] | None = cursor.fetchone()
    if found is None:
        raise Game.DoesNotExist(f"No game {pk}.")
    return found


def locked_game(pk: int) -> Game:
    """The game row, locked until the transaction ends (SELECT ... FOR UPDATE where rows lock)."""
    sql = reads()
    game: Game = sql.game.row(game_row(sql, sql.lock_sql, pk))
    return game


def game_with_host(pk: int) -> Game:
    """The game row with its host (as select_related("host"))."""
    sql = reads()
    found = game_row(sql, sql.game_with_host_sql, pk)
    cut = len(sql.game)
    game: Game = sql.game.row(found[:cut])
    game.host = sql.user.row(found[cut:])
    return game


def seats_of(game: Game) -> list[Seat]:
    """The game's seats with their people, in seat order (joining order before the start), each
    pointing at this game row."""
    sql = reads()
    with sql.db.cursor() as cursor:
        cursor.execute(sql.seats_sql, [game.pk])
        rows = cursor.fetchall()
    cut = len(sql.seat)
    seats = []
    for found in rows:
        seat: Seat = sql.seat.row(found[:cut])
        seat.user = sql.user.row(found[cut:])
        seat.game = game
        seats.append(seat)
    return seats
