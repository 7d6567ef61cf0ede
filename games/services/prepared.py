"""The live path's hottest queries and writes, their SQL made once and sent many times.

Every move locks its game and reads its seats, and every push of a version another process
stored reads the game and its seats again. Django compiles a queryset's SQL on every run: for the
seats with their people that is about 0.4 ms of CPU, as much as the round trip and the rows
together. A `Prepared` query is a queryset built once with a stand-in for its one parameter
(a game's id) and compiled on each connection's first use; each run then sends that SQL with the
id, and turns the rows into models exactly as the queryset would (the database's converters,
`from_db`, and the models its select_related joins).

A move's two writes go the same way: the game row's changed fields (`save_fields`, for
`save(update_fields=...)`) and its new Action rows (`insert_all`, for `bulk_create`). Their SQL is
written once per model and fields and database vendor; each value is made ready for the database
by its field, exactly as the ORM's compiler does. Whatever the short path cannot write as the ORM
would (a save signal listened to, an expression for a value, a field with its own placeholder, a
model with parents, a row with its primary key set) goes through the ORM instead.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from django.core.exceptions import FieldDoesNotExist
from django.db import DEFAULT_DB_ALIAS, DatabaseError, connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Field, Model, QuerySet, signals
from django.db.models.query import get_related_populators  # type: ignore[attr-defined]
from django.db.transaction import TransactionManagementError

from games.models import Game, Seat

M = TypeVar("M", bound=Model)

STAND_IN = -918_273_645  # the parameter a Prepared query is compiled with (no row has this id)


@dataclass(frozen=True)
class Compiled:
    """One query's SQL on one connection, and how its rows become models."""

    sql: str
    model: type[Model]
    start: int
    end: int
    names: list[str]
    converters: Any
    apply: Callable[[Any, Any], Any]
    populators: list[Any]
    locks: bool

    def models(self, rows: Any, using: str) -> list[Any]:
        """The rows as models, exactly as the queryset makes them."""
        if self.converters:
            rows = list(map(tuple, self.apply(rows, self.converters)))
        found = []
        for row in rows:
            obj = self.model.from_db(using, self.names, row[self.start : self.end])
            for populator in self.populators:
                populator.populate(row, obj)
            found.append(obj)
        return found


COMPILED_ON = "bakehouse_prepared"  # the attribute of a connection object its queries sit in


def compiled_on(connection: BaseDatabaseWrapper) -> dict[Prepared[Any], Compiled]:
    """The queries compiled on this connection object, kept on it and gone with it.

    A compiled query holds its connection (its compiler and converters do), so a cache outside
    the connection, even a weak one, would keep every connection object alive: one per thread,
    and each HTTP request runs in a thread of its own. A connection object is used by one thread.
    """
    kept: dict[Prepared[Any], Compiled] | None = getattr(connection, COMPILED_ON, None)
    if kept is None:
        kept = {}
        setattr(connection, COMPILED_ON, kept)
    return kept


class Prepared(Generic[M]):
    """A queryset of one parameter, compiled once per connection (see the module's doc)."""

    def __init__(self, build: Callable[[int], QuerySet[M]]) -> None:
        self.build = build

    def compiled(self, connection: BaseDatabaseWrapper) -> Compiled:
        """This query's SQL on this connection (compiled on its first use)."""
        known = compiled_on(connection).get(self)
        if known is not None:
            return known
        queryset = self.build(STAND_IN)
        compiler = queryset.query.get_compiler(connection=connection)
        sql, params = compiler.as_sql()
        if tuple(params) != (STAND_IN,):
            raise ValueError(f"A prepared query takes one parameter, not {params!r}.")
        select, info = compiler.select, compiler.klass_info
        assert info is not None
        fields = info["select_fields"]
        start, end = fields[0], fields[-1] + 1
        compiled = Compiled(
            sql=sql,
            model=info["model"],
            start=start,
            end=end,
            names=[column[0].target.attname for column in select[start:end]],
            converters=compiler.get_converters([s[0] for s in select[: compiler.col_count]]),
            apply=compiler.apply_converters,
            populators=get_related_populators(info, select, connection.alias),
            locks=bool(queryset.query.select_for_update),
        )
        compiled_on(connection)[self] = compiled
        return compiled

    def all(self, value: int, using: str = DEFAULT_DB_ALIAS) -> list[M]:
        """The query's models for this value of its parameter."""
        connection = connections[using]
        compiled = self.ready(connection)
        with connection.cursor() as cursor:
            cursor.execute(compiled.sql, [value])
            rows: Any = cursor.fetchall()
        return compiled.models(rows, using)

    def ready(self, connection: BaseDatabaseWrapper) -> Compiled:
        """The compiled query, once the connection may run it (a lock needs a transaction)."""
        compiled = self.compiled(connection)
        if compiled.locks and connection.get_autocommit():  # as the queryset checks
            raise TransactionManagementError(
                "select_for_update cannot be used outside of a transaction."
            )
        return compiled

    def get(self, value: int, using: str = DEFAULT_DB_ALIAS) -> M:
        """The one model for this value (the model's DoesNotExist if there is none)."""
        found = self.all(value, using)
        if not found:
            model: Any = self.build(value).model
            raise model.DoesNotExist(f"No row with {value}.")
        return found[0]


# --- writes ------------------------------------------------------------------------------

MAX_ROWS = 64  # more rows than a move makes: bulk_create batches them by the database's limits
_written: dict[tuple[Any, ...], Any] = {}  # (what, model, fields or rows, vendor) -> SQL, fields


def save_listened(model: type[Model]) -> bool:
    """Whether anything listens to this model's saves (the short path sends no signal)."""
    return signals.pre_save.has_listeners(model) or signals.post_save.has_listeners(model)


def plain_value(value: Any) -> bool:
    """Whether a field's value is data (not an expression or a model the ORM would resolve)."""
    return not hasattr(value, "resolve_expression") and not hasattr(value, "prepare_database_save")


def writable(model: type[Model], fields: list[Field[Any, Any]]) -> bool:
    """Whether the short path writes these fields of this model as the ORM would."""
    meta = model._meta
    return not meta.parents and all(
        f.concrete and not f.primary_key and not f.generated and not hasattr(f, "get_placeholder")
        for f in fields
    )


def written_once(key: tuple[Any, ...], write: Callable[[], Any]) -> Any:
    """The SQL and fields a write of this kind has (None: not written so), worked out once."""
    if key not in _written:
        _written[key] = write()
    return _written[key]


def update_of(model: type[Model], names: tuple[str, ...], vendor: str, qn: Any) -> Any:
    """The UPDATE of these fields by primary key, and the fields (None: not writable so)."""

    def write() -> Any:
        try:
            fields = [model._meta.get_field(name) for name in names]
        except FieldDoesNotExist:  # an attname ("host_id"): the ORM's save takes those too
            return None
        ok = bool(fields) and len(set(names)) == len(names) and writable(model, fields)  # type: ignore[arg-type]
        sets = ", ".join(f"{qn(f.column)} = %s" for f in fields)  # type: ignore[union-attr]
        where = f"{qn(model._meta.pk.column)} = %s"
        sql = f"UPDATE {qn(model._meta.db_table)} SET {sets} WHERE {where}"
        return (sql, fields) if ok else None

    return written_once(("update", model, names, vendor), write)


def save_fields(instance: Model, names: list[str], using: str = DEFAULT_DB_ALIAS) -> None:
    """`instance.save(update_fields=names)`: the same row written, the same error when no row
    was, each field's pre_save run (auto_now) and its value made ready by the field."""
    model, connection = type(instance), connections[using]
    known = None
    if instance.pk is not None and not save_listened(model):
        known = update_of(model, tuple(names), connection.vendor, connection.ops.quote_name)
    if known is None:
        instance.save(update_fields=names, using=using)
        return
    sql, fields = known
    values = [f.pre_save(instance, False) for f in fields]
    if not all(map(plain_value, values)):
        instance.save(update_fields=names, using=using)
        return
    params = [f.get_db_prep_save(v, connection) for f, v in zip(fields, values, strict=True)]
    params.append(model._meta.pk.get_db_prep_value(instance.pk, connection))
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        if cursor.rowcount == 0:
            raise DatabaseError("Save with update_fields did not affect any rows.")
    instance._state.db, instance._state.adding = using, False


def insert_of(model: type[Model], rows: int, connection: BaseDatabaseWrapper) -> Any:
    """The INSERT of `rows` new rows returning their keys, and its fields (None: not so)."""

    def write() -> Any:
        meta, qn = model._meta, connection.ops.quote_name
        fields = [f for f in meta.concrete_fields if f is not meta.pk]
        ok = (
            meta.auto_field is meta.pk
            and connection.features.can_return_rows_from_bulk_insert
            and writable(model, fields)
        )
        columns = ", ".join(qn(f.column) for f in fields)
        row = f"({', '.join(['%s'] * len(fields))})"
        returning = qn(meta.pk.column)
        sql = (
            f"INSERT INTO {qn(meta.db_table)} ({columns}) VALUES {', '.join([row] * rows)}"
            f" RETURNING {returning}"
        )
        return (sql, fields) if ok else None

    return written_once(("insert", model, rows, connection.vendor), write)


def insert_all(objs: list[M], using: str = DEFAULT_DB_ALIAS) -> None:
    """`Model.objects.bulk_create(objs)` for new rows: the same rows written, each field's
    pre_save run (auto_now_add), each row's primary key set from what the INSERT returns."""
    if not objs:
        return
    model, connection = type(objs[0]), connections[using]
    known = None
    if len(objs) <= MAX_ROWS and all(type(o) is model and o.pk is None for o in objs):
        known = insert_of(model, len(objs), connection)
    if known is None:
        model._default_manager.using(using).bulk_create(objs)
        return
    sql, fields = known
    for obj in objs:
        obj._prepare_related_fields_for_save(operation_name="bulk_create")  # type: ignore[attr-defined]
    values = [[f.pre_save(obj, True) for f in fields] for obj in objs]
    if not all(plain_value(v) for row in values for v in row):
        model._default_manager.using(using).bulk_create(objs)
        return
    params = [
        f.get_db_prep_save(v, connection)
        for row in values
        for f, v in zip(fields, row, strict=True)
    ]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        keys = [row[0] for row in cursor.fetchall()]
    for obj, pk in zip(objs, keys, strict=True):
        obj.pk = pk
        obj._state.db, obj._state.adding = using, False


# --- the live path's queries -------------------------------------------------------------

LOCKED_GAME: Prepared[Game] = Prepared(
    lambda pk: Game.objects.select_for_update().filter(pk=pk).order_by()
)
# With its host: the waiting room shows the host's name, and each of its versions is read anew
# by the sockets (a lock reads no person's row: see services.base.lock).
GAME: Prepared[Game] = Prepared(
    lambda pk: Game.objects.filter(pk=pk).select_related("host").order_by()
)
SEATS: Prepared[Seat] = Prepared(
    lambda game_id: (
        Seat.objects.filter(game_id=game_id)
        .select_related("user")
        .order_by("position", "joined_at", "pk")
    )
)


def seats_of(game: Game) -> list[Seat]:
    """The game's seats with their people, in seat order (joining order before the start),
    each pointing at this game row (as game.seats would)."""
    return of_game(SEATS.all(game.pk), game)


def of_game(seats: list[Seat], game: Game) -> list[Seat]:
    """These seats, each pointing at this game row."""
    for seat in seats:
        Seat.game.field.set_cached_value(seat, game)
    return seats


def locked_with_seats(pk: int, using: str = DEFAULT_DB_ALIAS) -> tuple[Game, list[Seat]]:
    """The game row locked until the transaction ends, and its seats read after the lock is held
    (LOCKED_GAME.get, then seats_of).

    On PostgreSQL both statements go in one pipeline: one round trip instead of two (psycopg
    still sends the transaction's BEGIN on its own). They stay two statements, run in order, so the
    seats are read with a snapshot taken once the lock is held, as fresh as when read after it
    (one statement joining both would read the seats from before a wait on the lock).
    """
    connection = connections[using]
    if not pipelined(connection):
        game = LOCKED_GAME.get(pk, using)
        return game, seats_of(game)
    lock, seats = LOCKED_GAME.ready(connection), SEATS.ready(connection)
    with connection.cursor() as lock_cursor, connection.cursor() as seats_cursor:
        with connection.wrap_database_errors, connection.connection.pipeline():
            lock_cursor.execute(lock.sql, [pk])
            seats_cursor.execute(seats.sql, [pk])
        games = lock.models(lock_cursor.fetchall(), using)
        if not games:
            raise Game.DoesNotExist(f"No row with {pk}.")
        return games[0], of_game(seats.models(seats_cursor.fetchall(), using), games[0])


def pipelined(connection: BaseDatabaseWrapper) -> bool:
    """Whether statements can be sent to this database together (psycopg 3's pipeline mode)."""
    if connection.vendor != "postgresql":
        return False
    connection.ensure_connection()
    return hasattr(connection.connection, "pipeline")
