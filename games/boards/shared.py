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
from dataclasses import dataclass, replace
from typing import Any

from games import presence
from games.models import Game, Seat

KEEP = 2048  # tables remembered per process (a few KiB each)


@dataclass(frozen=True)
class TableAt:
    """One table at one version: its row, its seats and its engine state (None before the start),
    and who was at it when last read (presence moves without a new version)."""

    game: Game
    seats: list[Seat]
    state: Any
    presence: presence.Presence = presence.NOBODY


_recent: OrderedDict[int, TableAt] = OrderedDict()
_lock = threading.Lock()  # the sockets' pushes run in several threads


def table_at(
    game_id: int, version: int | None = None, presence_stamp: float | None = None
) -> TableAt:
    """The table as stored, read again unless a version at least `version` is already known;
    its presence read again if it was read before `presence_stamp` (a presence change)."""
    with _lock:
        known = _recent.get(game_id)
    if known is None or version is None or known.game.version < version:
        game = Game.objects.get(pk=game_id)
        if known is None or known.game.version != game.version:
            known = read(game)
    if presence_stamp is not None and known.presence.read_at < presence_stamp:
        known = replace(known, presence=presence.read(game_id))
    with _lock:
        newest = _recent.get(game_id)
        if newest is None or newest.game.version < known.game.version:
            _recent[game_id] = known
        elif newest.game.version == known.game.version:
            fresher = newest.presence.read_at < known.presence.read_at
            _recent[game_id] = known if fresher else newest
            known = _recent[game_id]
        _recent.move_to_end(game_id)
        while len(_recent) > KEEP:
            _recent.popitem(last=False)
    return known


def read(game: Game) -> TableAt:
    """The seats and engine state of this game row."""
    seats = list(game.seats.select_related("user"))
    state = game.spec.engine.load(game.snapshot) if game.snapshot is not None else None
    return TableAt(game, seats, state, presence.read(game.pk))


def forget(game_id: int) -> None:
    """Read the table again next time (a seat changed without a new version: closed results)."""
    with _lock:
        _recent.pop(game_id, None)
