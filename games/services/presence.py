"""Who is at a table now: a row per socket (games.models.TableSocket), seen by every process.

A socket's row is written when it opens and marked closed (with the time) when it closes; its
process renews the open rows every sweep (games.live.runner). A person counts as here while any of
their rows was seen within AWAY_SECONDS: a short drop (a reload, a train tunnel) does not make a
seat away, and the rows of a process that died stop being renewed, so its people go away too.
Rows are kept RELAXED_ABSENCE_SECONDS, as long as games.services.absence reads them.
A change is announced to the table's group as "presence.changed" (never who, only when); each
socket then re-reads the table's presence once per process (games.boards.shared).
"""

from __future__ import annotations

import os
import secrets
import socket
import time
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import QuerySet

from accounts.models import User
from games import events
from games.models import TableSocket
from games.services import clocks

PROCESS = f"{socket.gethostname()}-{os.getpid()}-{secrets.token_hex(4)}"[:40]


@dataclass(frozen=True)
class Presence:
    """A table's sockets as read at one time: who is connected, who was lately, the guests."""

    connected: frozenset[int]
    recent: frozenset[int]
    guests: int
    read_at: float

    def status(self, user_id: int) -> str:
        """ "here" (a socket open), "dropped" (none, but lately) or "away"."""
        if user_id in self.connected:
            return "here"
        return "dropped" if user_id in self.recent else "away"

    def spectators(self, seated: set[int]) -> int:
        """How many watch without a seat: signed-in people once each, guests by socket."""
        return len(self.connected - seated) + self.guests


NOBODY = Presence(frozenset(), frozenset(), 0, 0.0)
"""No socket at the table (read at the dawn of time, so any change reads it again)."""


def away_since(at: datetime) -> datetime:
    """Rows seen before this no longer keep their person here."""
    return at - timedelta(seconds=settings.AWAY_SECONDS)


def kept_since(at: datetime) -> datetime:
    """Rows seen before this are of no more use: past the away line, and past the relaxed
    tables' absence (games.services.absence reads how long a person has been gone)."""
    longest = max(settings.AWAY_SECONDS, settings.RELAXED_ABSENCE_SECONDS)
    return at - timedelta(seconds=longest)


def read(game_id: int) -> Presence:
    """The table's presence now (one query)."""
    return read_many([game_id]).get(game_id, NOBODY)


def read_many(game_ids: Iterable[int]) -> dict[int, Presence]:
    """The presence now of each of these tables (one query for them all)."""
    stamp = time.time()
    at = clocks.now()
    live_since = at - timedelta(seconds=settings.PRESENCE_STALE_SECONDS)
    ids = list(game_ids)
    rows = TableSocket.objects.filter(game_id__in=ids, seen_at__gte=away_since(at))
    connected: dict[int, set[int]] = {pk: set() for pk in ids}
    recent: dict[int, set[int]] = {pk: set() for pk in ids}
    guests = dict.fromkeys(ids, 0)
    for game_id, user_id, is_open, seen_at in rows.values_list(
        "game_id", "user_id", "open", "seen_at"
    ):
        live = is_open and seen_at >= live_since
        if user_id is None:
            guests[game_id] += live
            continue
        recent[game_id].add(user_id)
        if live:
            connected[game_id].add(user_id)
    return {
        pk: Presence(frozenset(connected[pk]), frozenset(recent[pk]), guests[pk], stamp)
        for pk in ids
    }


def lately_here(game_ids: Iterable[int]) -> set[int]:
    """The people with a socket at any of these tables now or lately (here or reconnecting)."""
    rows = TableSocket.objects.filter(
        game_id__in=list(game_ids), user__isnull=False, seen_at__gte=away_since(clocks.now())
    )
    return set(rows.values_list("user_id", flat=True))


def people_lately_here(user_ids: Iterable[int]) -> set[int]:
    """Which of these people have a socket of the site open now, or at a table lately: every
    socket keeps a row (games/live/caps.py), a table's until it goes stale, a page's (the
    waiting panel, a tournament's) until it closes."""
    rows = TableSocket.objects.filter(
        user_id__in=list(user_ids), seen_at__gte=away_since(clocks.now())
    )
    return set(rows.values_list("user_id", flat=True))


def announce(game_id: int) -> None:
    """Tell the table's sockets that its presence changed (they re-read it; the platform
    gathers a table's changes into one: games/groups.py, presence_changed_here)."""
    events.presence_changed.tell(game_id)


HERE, DROPPED, AWAY = "here", "dropped", "away"
"""What a socket's row says of its person, and what the table was last told of it (`told`)."""


SESSION_OWNER, ADDRESS_OWNER = "s:", "a:"
"""How an owner (TableSocket.owner) begins: a session's digest, or a guest's address's. The caps
on open sockets, counted by these rows, are games/live/caps.py."""


@dataclass(frozen=True)
class Opened:
    """Whether a socket's arrival was told to its table."""

    told: bool = False


def opened(channel: str, game_id: int, user_id: int | None) -> Opened:
    """A socket joined the table: its row written and announced (a socket's channel name is new
    to the layer, so its row is too: one insert). The table's socket writes its row through the
    caps (games/live/caps.py: admit), then calls `arrived`."""
    TableSocket.objects.create(
        channel=channel,
        game_id=game_id,
        user_id=user_id,
        process=PROCESS,
        open=True,
        seen_at=clocks.now(),
        told=HERE,
    )
    return arrived(game_id, user_id, again=False)


def arrived(game_id: int, user_id: int | None, again: bool) -> Opened:
    """A socket's row at the table is written: announced unless it changes nothing the table
    shows (`again`: its session already has a socket open here, another tab, or the page back
    after a restart closed its last socket while that row still counts, see `restarted`)."""
    seen(user_id)
    if again:
        return Opened()
    announce(game_id)
    return Opened(told=True)


def close(rows: QuerySet[TableSocket], **told: str) -> int:
    """Close these sockets' rows now, keeping the time (their people were last seen then); how
    many. `told`: what their tables are told of them, if it changes."""
    at = clocks.now()
    User.objects.filter(pk__in=rows.values("user_id")).update(last_seen=at)
    return rows.update(open=False, seen_at=at, **told)


def closed(channel: str, game_id: int) -> None:
    """A socket left the table: its row keeps the time, so its person stays here a while."""
    close(TableSocket.objects.filter(channel=channel), told=DROPPED)
    announce(game_id)


def restarted(process: str = PROCESS) -> int:
    """This process stopped for a deploy (games/live/drain.py): its sockets, told to come back to
    another process, left without closing their rows, so that nobody's seat showed "dropped"
    for the second their page took to come back. Their rows close now, in one go, without a
    word to their tables: each row keeps what its table was told ("here"), so a person whose
    page did come back stays here by the new row, and one whose page did not is told
    "dropped" by the sweep that finds the row stale (PRESENCE_STALE_SECONDS). Only the tables
    a guest watched are told now: guests count by socket, and a guest back on a new socket was
    counted twice meanwhile. How many closed.
    """
    rows = TableSocket.objects.filter(process=process, open=True)
    watched_by_guests = set(
        rows.filter(user=None, game__isnull=False).values_list("game_id", flat=True)
    )
    closed = close(rows)
    for game_id in sorted(watched_by_guests):
        announce(game_id)
    return closed


def seen(user_id: int | None) -> None:
    """The person was at a table's page just now (turn-based tables show when, once they left)."""
    if user_id is not None:
        User.objects.filter(pk=user_id).update(last_seen=clocks.now())


def renew(process: str = PROCESS) -> int:
    """This process's open sockets are still open (every sweep); how many.

    A row another process's sweep found stale (this process was stalled) is here again: told.
    """
    return renewed(TableSocket.objects.filter(process=process, open=True))


def renew_rows(channels: list[str]) -> int:
    """These open streams' rows are still open (games/live/stream_watch.py, for every stream of
    a process at once); how many."""
    return renewed(TableSocket.objects.filter(channel__in=channels, open=True))


def renewed(rows: QuerySet[TableSocket]) -> int:
    """These rows seen now; a table where one of them had been told gone is told it is back."""
    revived = set(
        rows.exclude(told=HERE).filter(game__isnull=False).values_list("game_id", flat=True)
    )
    count = rows.update(seen_at=clocks.now(), told=HERE)
    for game_id in sorted(revived):
        announce(game_id)
    return count


def phase(is_open: bool, seen_at: datetime, at: datetime) -> str:
    """What a socket's row says of its person at this time."""
    if seen_at < away_since(at):
        return AWAY
    live = is_open and seen_at >= at - timedelta(seconds=settings.PRESENCE_STALE_SECONDS)
    return HERE if live else DROPPED


def sweep() -> list[int]:
    """The games whose presence changed by time alone since their screens were last told,
    announced; rows past use go.

    A person goes away AWAY_SECONDS after their last socket closed; a socket whose process
    stopped renewing it drops PRESENCE_STALE_SECONDS after its last renewal. Each row keeps what
    its table was last told (`told`), so a sweep that comes late still tells every change once.
    """
    at = clocks.now()
    stale = at - timedelta(seconds=settings.PRESENCE_STALE_SECONDS)
    rows = TableSocket.objects.filter(seen_at__lt=stale, game__isnull=False).exclude(told=AWAY)
    changed: dict[str, list[int]] = {AWAY: [], DROPPED: []}
    games = set()
    for pk, game_id, is_open, seen_at, told in rows.values_list(
        "pk", "game_id", "open", "seen_at", "told"
    ):
        now_says = phase(is_open, seen_at, at)
        if now_says != told:
            changed[now_says].append(pk)
            games.add(game_id)
    # Only rows still as read: one renewed meanwhile is here again.
    if changed[AWAY]:
        TableSocket.objects.filter(pk__in=changed[AWAY], seen_at__lt=away_since(at)).update(
            told=AWAY
        )
    if changed[DROPPED]:
        TableSocket.objects.filter(pk__in=changed[DROPPED], seen_at__lt=stale).update(told=DROPPED)
    TableSocket.objects.filter(seen_at__lt=kept_since(at)).delete()
    for game_id in sorted(games):
        announce(game_id)
    return sorted(games)
