"""What a table's socket reads and sends, on a push thread: the table checked on connect, the
socket's arrival written, and the board rendered for one viewer, whole or the regions that
changed since what the socket has sent (games/boards/shared.py shares the reads)."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from datetime import timedelta

from django.conf import settings
from django.contrib.auth.models import AnonymousUser

from accounts.models import User
from games.access import can_watch, watch_refused
from games.boards import shared
from games.boards.chat import render_chat_log
from games.boards.render import Sent, render_diff, render_whole
from games.boards.shared import TableAt, table_at
from games.live import caps
from games.live.protocol import NOT_ALLOWED, NOT_FOUND
from games.live.sessions import SESSION_ENDED, SocketSession
from games.models import Game
from games.services import clocks, presence, rematch_arrived


def load_table(
    game_id: int, user: User | AnonymousUser, invited: list[int]
) -> tuple[TableAt, None] | tuple[None, int]:
    """The table as stored now if this user may watch it, else the close code that says why: one
    read serves the access checks and the first board."""
    try:
        table = table_at(game_id)
    except Game.DoesNotExist:
        return None, NOT_FOUND
    refused = NOT_FOUND if not can_watch(table.game, user, invited) else None
    if refused is None and watch_refused(table.game, user, table.seats):
        refused = NOT_ALLOWED
    if refused is not None:
        shared.forget_unserved(game_id)  # read for the check alone
        return None, refused
    return table, None


def chat_for(game_id: int, user: User | AnonymousUser, session: SocketSession | None) -> str | None:
    """This viewer's chat lines ("" if they may not read it), or None if the session ended."""
    if session is not None and not session.alive():
        return None
    table = table_at(game_id)  # the seats as this process's sockets share them
    return render_chat_log(table.game, user, table.seats)


def arrived(
    table: TableAt, channel: str, user: User | AnonymousUser, owner: caps.Owner
) -> TableAt | int:
    """The socket's row written (and announced to the table if it changes who is there); the
    table as just read (or newer), with who is at it now, this person included, kept for the
    table's other sockets here. Or, past a cap of its owner's open sockets (games/live/caps.py),
    the close code that says which."""
    user_id = getattr(user, "pk", None)
    admitted = caps.admit(channel, owner, game_id=table.game.pk, user_id=user_id)
    if admitted.code is not None:
        return admitted.code
    row = presence.arrived(table.game.pk, user_id, admitted.again)
    if awaits_arrivals(table, user) and rematch_arrived(table.game.pk):
        return table_at(table.game.pk, presence_stamp=time.time())  # its clocks started now
    # Presence read again only if this socket changed it (a person already here changes nothing).
    stamp = time.time() if row.told else None
    return table_at(table.game.pk, table.game.version, presence_stamp=stamp)


def awaits_arrivals(table: TableAt, user: User | AnonymousUser) -> bool:
    """Whether this person coming may start a rematch's first clocks: they sit at a rematch
    dealt within the arrival grace (read from the table as it is, no query)."""
    game = table.game
    if game.rematch_of_id is None or game.status != Game.Status.RUNNING or not game.started_at:
        return False
    if not any(s.user_id == getattr(user, "pk", None) for s in table.seats):
        return False
    return clocks.now() - game.started_at <= timedelta(seconds=settings.REMATCH_ARRIVAL_SECONDS)


def fresh(
    game_id: int,
    session: SocketSession | None,
    version: int | None,
    known: TableAt | None = None,
    stamp: float | None = None,
) -> TableAt | None:
    """The table at `version` or later (shared by this process's sockets; `known` if already
    read), its presence read after `stamp`, or None if the socket's session has ended."""
    if session is not None and not session.alive():
        return None
    return known or table_at(game_id, version, stamp)


@dataclass(frozen=True)
class Shown:
    """What a socket has sent: the version and status of its board, and each region's prints."""

    version: int
    status: str
    prints: Sent


@dataclass(frozen=True)
class Push:
    """What a socket sends next: the close code that ends it, or the board (whole or the regions
    that changed, "" if none did) and what it has then sent."""

    close: int | None
    html: str = ""
    version: int = -1
    status: str = ""
    prints: Sent = field(default_factory=dict)


def pushed(
    game_id: int,
    user: User | AnonymousUser,
    session: SocketSession | None,
    shown: Shown,
    whole: bool,
    version: int | None = None,
    known: TableAt | None = None,
    stamp: float | None = None,
) -> Push:
    """The table read again (see fresh) and rendered for this viewer: whole if asked, and always
    when the phase moved (a lobby on screen has no regions a diff could land in), whatever
    message found it (a presence change can read a start before the start's own push comes).

    `version`: an announced version; the table as this process already read it will do if
    it is that new (the table's other sockets here read it once for all). `known`: the table
    just read (on connect), pushed as it is. `stamp`: when a presence change was announced;
    presence read before it is read again.
    """
    table = fresh(game_id, session, version, known, stamp)
    if table is None:
        return Push(SESSION_ENDED)
    game = table.game
    if game.status != shown.status and watch_refused(game, user, table.seats):
        return Push(NOT_ALLOWED)  # the game started, and the host keeps it from you
    if whole or game.status != shown.status:
        html, prints = render_whole(game, user, table)
    else:
        html, prints = render_diff(game, user, shown.prints, shown.version, table)
    return Push(None, html, game.version, game.status, prints)
