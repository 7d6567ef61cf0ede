"""What every viewer of a table shares at one version, read and rendered once per process.

When a move is announced, each socket of the table in this process re-reads the game and builds
its own board. The game row, the seats and the engine state are the same for all of them at one
version: they are read once and kept here (the newest version of each recent table), a lock
keeping it whole as the pushes run in several threads. A table's page takes the read of its
version too, and keeps its own (at_version, for games/web/table_page.py: a Swiss round's start
asks a table's page for each of its seats at once); other HTTP requests read the database
themselves.

The renders of a table's regions at its version are kept beside it (renders.py), and forgotten
with it here.

Whom a block keeps from an open table's seats is kept with its version too (Blocks), read only
when a viewer who could take a seat is first drawn; so is the event the table is played for
(Event: "Round 1 of Sunday Swiss"), read when its page or its results panel is first drawn.
"""

from __future__ import annotations

import copy
import threading
import time
from collections import Counter, OrderedDict
from dataclasses import dataclass, field, replace

from accounts.friends import KeptOut, kept_out
from games.boards import renders
from games.models import Game, Seat
from games.services import PlayedFor, played_for, presence, rows

# What is kept is bounded by what it serves: a table and its renders are forgotten when the last
# socket of this process at it closes (socket_closed). The count below (and renders.RENDERS_KEEP)
# is the backstop.
KEEP = 2048  # tables remembered per process (a few KiB each)
PRESENCE_KEPT_SECONDS = 10.0  # a table's presence kept across its versions (see read)


class Blocks:
    """Whom a block keeps from a table's seats at one version: read once, when the first viewer
    who could take a seat is drawn, then shared by every viewer of that version (a read of its
    presence included), so one who is not kept out costs no query of their own."""

    __slots__ = ("found",)

    def __init__(self) -> None:
        self.found: KeptOut | None = None

    def of(self, seats: list[Seat]) -> KeptOut:
        """Who is kept from sitting with these seats (read on the first call)."""
        if self.found is None:
            self.found = kept_out({s.user_id for s in seats})
        return self.found


class Event:
    """The event a table is played for (games.services.played_for, a query), read when the first
    viewer of its version asks, then shared by every viewer of that version: a Swiss round's
    start draws each new table's page for its four people in one instant."""

    __slots__ = ("found", "read")

    def __init__(self) -> None:
        self.found: PlayedFor | None = None
        self.read = False

    def of(self, game: Game) -> PlayedFor | None:
        """The table's event, or None (read on the first call)."""
        if not self.read:
            self.found, self.read = played_for(game), True
        return self.found


@dataclass(frozen=True)
class TableAt:
    """One table at one version: its row, its seats and its engine state (None before the start),
    and who was at it when last read (presence moves without a new version)."""

    game: Game
    seats: list[Seat]
    state: object  # the engine's (opaque here)
    presence: presence.Presence = presence.NOBODY
    blocks: Blocks = field(default_factory=Blocks, compare=False, repr=False)
    event: Event = field(default_factory=Event, compare=False, repr=False)

    def kept_out(self) -> KeptOut:
        """Whom a block keeps from this table's seats (accounts.friends.kept_out), read once."""
        return self.blocks.of(self.seats)

    def played_for(self) -> PlayedFor | None:
        """The event this table is played for (games.services.played_for), read once."""
        return self.event.of(self.game)


_recent: OrderedDict[int, TableAt] = OrderedDict()
_lock = threading.Lock()  # the sockets' pushes run in several threads
_reading: dict[int, threading.Lock] = {}  # game id -> held while one thread reads that table
_sockets: Counter[int] = Counter()  # game id -> this process's open sockets at that table


def table_at(
    game_id: int, version: int | None = None, presence_stamp: float | None = None
) -> TableAt:
    """The table as stored, read again unless a version at least `version` is already known;
    its presence read again if it was read before `presence_stamp` (a presence change).

    One thread of this process reads a table at a time: the table's other sockets, pushed in
    other threads for the same version, wait for that read and take it.
    """
    known = recent(game_id)
    if stale(known, version):
        with reading(game_id):
            known = recent(game_id)
            if stale(known, version):
                game = rows.game_with_host(game_id)
                if known is None or known.game.version != game.version:
                    known = read(game, known)
    assert known is not None
    if presence_stamp is not None and known.presence.read_at < presence_stamp:
        known = replace(known, presence=presence.read(game_id))
    return keep(known)


def at_version(game: Game) -> TableAt:
    """The seats, state and presence of this game row as read: the read this process already
    made at its version (its sockets', or another page's: a Swiss round's start asks a table's
    page for each of its seats at once), its presence read again past PRESENCE_KEPT_SECONDS,
    else read here; kept for the next page or socket."""
    known = recent(game.pk)
    if known is None or known.game.version != game.version:
        return keep(read(game, known))
    if time.time() - known.presence.read_at > PRESENCE_KEPT_SECONDS:
        return keep(replace(known, presence=presence.read(game.pk)))
    return known


def recent(game_id: int) -> TableAt | None:
    """The newest read of this table in this process, if any."""
    with _lock:
        return _recent.get(game_id)


def stale(known: TableAt | None, version: int | None) -> bool:
    """Whether the table must be read again: not read yet, asked as stored now (no version), or
    older than the version announced."""
    return known is None or version is None or known.game.version < version


def reading(game_id: int) -> threading.Lock:
    """The lock that lets one thread of this process read this table at a time."""
    with _lock:
        return _reading.setdefault(game_id, threading.Lock())


def keep(table: TableAt) -> TableAt:
    """Remember this read unless a newer one is known (or the same version's, with its presence
    read later: every change to a table makes a version, so two reads of one version differ in
    their presence alone); the read to use."""
    game_id = table.game.pk
    with _lock:
        newest = _recent.get(game_id)
        if newest is None or (newest.game.version, newest.presence.read_at) < (
            table.game.version,
            table.presence.read_at,
        ):
            _recent[game_id] = table
        table = _recent[game_id]
        _recent.move_to_end(game_id)
        while len(_recent) > KEEP:
            forgotten, _ = _recent.popitem(last=False)
            _reading.pop(forgotten, None)
    return table


def read(game: Game, known: TableAt | None = None) -> TableAt:
    """The seats and engine state of this game row; the presence of an earlier read of the same
    table is kept while younger than PRESENCE_KEPT_SECONDS (every change of presence is announced
    and read again, so this only bounds a lost announcement)."""
    seats = rows.seats_of(game)
    state = game.spec.engine.load(game.snapshot) if game.snapshot is not None else None
    seen = known.presence if known is not None and known.game.pk == game.pk else None
    if seen is None or time.time() - seen.read_at > PRESENCE_KEPT_SECONDS:
        seen = presence.read(game.pk)
    return TableAt(game, seats, state, seen)


def remember(game: Game, seats: list[Seat], state: object) -> None:
    """A version this process just stored (the `stored` event): kept for the table's sockets
    here, with the presence they last read, so none of them reads it back. Only for a table whose
    sockets this process serves, and whose presence is fresh enough to keep (see read)."""
    known = recent(game.pk)
    if known is None or known.game.version >= game.version:
        return
    if time.time() - known.presence.read_at > PRESENCE_KEPT_SECONDS:
        return
    keep(TableAt(copy.copy(game), [copy.copy(s) for s in seats], state, known.presence))


def on_stored(
    sender: object, game: Game, seats: list[Seat], state: object, **kwargs: object
) -> None:
    """The `stored` event (games/events.py, wired in games/wiring.py): remember the version."""
    remember(game, seats, state)


def socket_opened(game_id: int) -> None:
    """A socket of this process joined the table: what is kept of it serves one more."""
    with _lock:
        _sockets[game_id] += 1


def socket_closed(game_id: int) -> None:
    """A socket of this process left the table; its last one takes the table and its renders
    with it (a finished game's state and boards are not kept for nobody)."""
    with _lock:
        _sockets[game_id] -= 1
        if _sockets[game_id] > 0:
            return
        del _sockets[game_id]
        _recent.pop(game_id, None)
        _reading.pop(game_id, None)
    renders.forget(game_id)


def forget_unserved(game_id: int) -> None:
    """Forget a table no socket of this process serves (a socket refused at its handshake read
    it for the access check): kept, it would stay until KEEP newer tables pushed it out."""
    with _lock:
        if _sockets[game_id] > 0:
            return
        _recent.pop(game_id, None)
        _reading.pop(game_id, None)
    renders.forget(game_id)


def forget_all() -> None:
    """Forget every table and render (tests: a new database reuses the same game ids)."""
    with _lock:
        _recent.clear()
        _sockets.clear()
    renders.forget_all()
