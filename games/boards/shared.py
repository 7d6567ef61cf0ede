"""What every viewer of a table shares at one version, read once per process for its sockets.

When a move is announced, each socket of the table in this process re-reads the game and builds
its own board. The game row, the seats and the engine state are the same for all of them at one
version: they are read once and kept here (the newest version of each recent table). Only the
sockets' pushes use this (a lock keeps it whole should they run in several threads); HTTP
requests read the database themselves.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from games.models import Game, Seat

KEEP = 2048  # tables remembered per process (a few KiB each)


@dataclass(frozen=True)
class TableAt:
    """One table at one version: its row, its seats and its engine state (None before the start)."""

    game: Game
    seats: list[Seat]
    state: Any


_recent: OrderedDict[int, TableAt] = OrderedDict()
_lock = threading.Lock()  # the sockets' pushes run in several threads


def table_at(game_id: int, version: int | None = None) -> TableAt:
    """The table as stored, read again unless a version at least `version` is already known."""
    with _lock:
        known = _recent.get(game_id)
    if known is None or version is None or known.game.version < version:
        game = Game.objects.get(pk=game_id)
        if known is None or known.game.version != game.version:
            known = read(game)
    with _lock:
        newest = _recent.get(game_id)
        if newest is None or newest.game.version <= known.game.version:
            _recent[game_id] = known
        _recent.move_to_end(game_id)
        while len(_recent) > KEEP:
            _recent.popitem(last=False)
    return known


def read(game: Game) -> TableAt:
    """The seats and engine state of this game row."""
    seats = list(game.seats.select_related("user"))
    state = game.spec.engine.load(game.snapshot) if game.snapshot is not None else None
    return TableAt(game, seats, state)


def forget(game_id: int) -> None:
    """Read the table again next time (a seat changed without a new version: closed results)."""
    with _lock:
        _recent.pop(game_id, None)
