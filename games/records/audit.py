"""The games this database keeps, checked against today's engine (`manage.py verify_games`, the
check of a restored backup).

Every finished game's export, built from its rows, must replay to its stored result: the check
`verify_export` runs on a file (archive.verify); one played under rules today's engine no longer
plays is counted apart (`under_other_rules`). Every running table must rebuild from its setup
and its actions to the snapshot it is stored at, so the site resumes it where it stood; its
clocks are the clocks' own check (games/services/clocks/check.py). The games are read a chunk
at a time, with their seats and their actions' fields alone (three queries a chunk, no model
object an action: those were half the time), so many thousands are checked in bounded memory.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from itertools import islice
from typing import Any, NamedTuple

from django.db import connection, transaction
from django.db.models import QuerySet

from games import catalog
from games.models import Action, Game, Seat
from games.records import archive

CHUNK = 200
"""Games read at a time, with their seats and actions."""


class Logged(NamedTuple):
    """One action as logged, its fields read alone (an archive.Logged)."""

    seq: int
    seat: int
    payload: Any


@dataclass(frozen=True)
class Stored:
    """A game as stored: its row, its seats with their people, its actions in order."""

    game: Game
    seats: list[Seat]
    actions: list[Logged]


def stored(games: QuerySet[Game]) -> Iterator[Stored]:
    """These games in id order, read a chunk at a time, each with its seats and actions."""
    rows = games.order_by("pk").iterator(chunk_size=CHUNK)
    while chunk := list(islice(rows, CHUNK)):
        ids = [game.pk for game in chunk]
        seats: dict[int, list[Seat]] = defaultdict(list)
        for seat in Seat.objects.filter(game_id__in=ids).select_related("user"):
            seats[seat.game_id].append(seat)
        actions: dict[int, list[Logged]] = defaultdict(list)
        logged = Action.objects.filter(game_id__in=ids).order_by("game_id", "seq")
        for game_id, *fields in logged.values_list("game_id", "seq", "seat", "payload"):
            actions[game_id].append(Logged(*fields))
        for game in chunk:
            for seat in seats[game.pk]:
                seat.game = game  # its name is read through its game: no query a seat
            yield Stored(game, seats[game.pk], actions[game.pk])


@contextmanager
def one_snapshot() -> Iterator[None]:
    """On PostgreSQL, the whole check reads one snapshot, read only, as pg_dump does: a table that
    moves meanwhile is seen before its move or after it, never between (its row read before, its
    actions after). Inside a transaction already (a test), that one. SQLite's transactions here
    take the write lock at once (IMMEDIATE), holding up every move: there the check reads as it
    goes, so check a copy of a running site's file (its `.backup`)."""
    if connection.vendor != "postgresql" or connection.in_atomic_block:
        yield
        return
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        yield


def finished_games() -> Iterator[Stored]:
    """Every finished game (its snapshot is not read: the export rebuilds from the actions)."""
    return stored(Game.objects.filter(status=Game.Status.OVER).defer("snapshot", "notices"))


def running_tables() -> Iterator[Stored]:
    """Every running table."""
    return stored(Game.objects.filter(status=Game.Status.RUNNING))


def under_other_rules(game: Game) -> bool:
    """Whether today's engine does not play this game's rules: its kind is no longer offered, or
    it was played under another RULES_VERSION. Its record is kept, but it cannot be replayed
    (a rules change is meant to show so, archive.engine_for), which is no fault of a backup."""
    try:
        engine = catalog.get(game.kind).engine
    except (KeyError, ImportError):
        return True
    return game.rules_version is not None and game.rules_version != engine.RULES_VERSION


def export_problems(found: Stored) -> list[str]:
    """How a finished game's export, built from its rows, differs from what today's engine
    replays (empty when every seat's score, place and win are the stored ones)."""
    return archive.verify(archive.export(found.game, found.seats, found.actions))


@dataclass
class Rebuilt:
    """A running table rebuilt from its setup and actions: the state (None when it could not be
    rebuilt) and how the table as stored differs from it."""

    state: object | None
    problems: list[str] = field(default_factory=list)


def rebuilt(table: Stored) -> Rebuilt:
    """Rebuild a running table from its stored setup and actions and compare it with its row:
    its move count, its actions numbered 1 to N, its snapshot (the state the site resumes)."""
    game, actions = table.game, table.actions
    found = Rebuilt(None, action_log_problems(game, actions))
    if game.snapshot is None:
        found.problems.append("It is running but keeps no snapshot.")
    players = sum(1 for s in table.seats if s.position is not None)
    try:
        engine = archive.engine_for(game.kind, game.rules_version)
        first = archive.start_state(
            game.kind, game.rules_version, players, game.seed, game.options, game.setup
        )
        found.state = archive.last_state(engine, first, ((a.seat, a.payload) for a in actions))
    except archive.CannotRebuild as exc:
        found.problems.append(str(exc))
        return found
    if engine.is_over(found.state):
        found.problems.append("Its actions end the game, but it is stored as running.")
    if game.snapshot is not None and as_json(engine.dump(found.state)) != game.snapshot:
        found.problems.append(f"Its snapshot is not the game its {len(actions)} actions rebuild.")
    return found


def action_log_problems(game: Game, actions: list[Logged]) -> list[str]:
    """How the table's action log disagrees with its row: a gap in the numbering, or a count
    other than the row's."""
    problems = []
    if [a.seq for a in actions] != list(range(1, len(actions) + 1)):
        problems.append("Its actions are not numbered 1 to N without a gap.")
    if game.moves != len(actions):
        problems.append(f"It counts {game.moves} moves but keeps {len(actions)} actions.")
    return problems


def as_json(data: object) -> object:
    """The data as it comes back from a JSON column (tuples become lists, keys strings)."""
    return json.loads(json.dumps(data))
