"""The live path's hottest queries, compiled to SQL once per database connection.

Every move locks its game and reads its seats, and every push of a version another process
stored reads the game and its seats again. Django compiles a queryset's SQL on every run: for the
seats with their people that is about 0.4 ms of CPU, as much as the round trip and the rows
together. A `Prepared` query is a queryset built once with a stand-in for its one parameter
(a game's id) and compiled on each connection's first use; each run then sends that SQL with the
id, and turns the rows into models exactly as the queryset would (the database's converters,
`from_db`, and the models its select_related joins).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar
from weakref import WeakKeyDictionary

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Model, QuerySet
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


class Prepared(Generic[M]):
    """A queryset of one parameter, compiled once per connection (see the module's doc)."""

    def __init__(self, build: Callable[[int], QuerySet[M]]) -> None:
        self.build = build
        self._compiled: WeakKeyDictionary[BaseDatabaseWrapper, Compiled] = WeakKeyDictionary()
        self._lock = threading.Lock()

    def compiled(self, connection: BaseDatabaseWrapper) -> Compiled:
        """This query's SQL on this connection (compiled on its first use)."""
        known = self._compiled.get(connection)
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
        with self._lock:
            self._compiled[connection] = compiled
        return compiled

    def all(self, value: int, using: str = DEFAULT_DB_ALIAS) -> list[M]:
        """The query's models for this value of its parameter."""
        connection = connections[using]
        compiled = self.compiled(connection)
        if compiled.locks and connection.get_autocommit():  # as the queryset checks
            raise TransactionManagementError(
                "select_for_update cannot be used outside of a transaction."
            )
        with connection.cursor() as cursor:
            cursor.execute(compiled.sql, [value])
            rows: Any = cursor.fetchall()
        if compiled.converters:
            rows = list(map(tuple, compiled.apply(rows, compiled.converters)))
        found = []
        for row in rows:
            obj = compiled.model.from_db(using, compiled.names, row[compiled.start : compiled.end])
            for populator in compiled.populators:
                populator.populate(row, obj)
            found.append(obj)
        return found  # type: ignore[return-value]

    def get(self, value: int, using: str = DEFAULT_DB_ALIAS) -> M:
        """The one model for this value (the model's DoesNotExist if there is none)."""
        found = self.all(value, using)
        if not found:
            model: Any = self.build(value).model
            raise model.DoesNotExist(f"No row with {value}.")
        return found[0]


# --- the live path's queries -------------------------------------------------------------

LOCKED_GAME: Prepared[Game] = Prepared(
    lambda pk: Game.objects.select_for_update().filter(pk=pk).order_by()
)
GAME: Prepared[Game] = Prepared(lambda pk: Game.objects.filter(pk=pk).order_by())
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
    seats = SEATS.all(game.pk)
    for seat in seats:
        Seat.game.field.set_cached_value(seat, game)
    return seats
