"""How many sockets one session, and one client address, may hold open: the same caps for every
socket route the site has (games/routing.py: a table's, the waiting page's, a tournament's).

Each open socket has a row (games.models.TableSocket: a table's names its game, any other its
`place`), renewed by its process every sweep, so the count holds across processes and a dead
process's sockets stop counting (games.services.presence). A socket past a cap keeps no row and
is closed with a code its page explains (TABS_AT_TABLE at one place, TABS_IN_ALL in all).
"""

from __future__ import annotations

import hashlib
import ipaddress
from dataclasses import dataclass
from datetime import timedelta
from typing import Protocol

from django.conf import settings
from django.db.models import Count, Q

from accounts.client_ip import socket_ip
from games.live.protocol import TABS_AT_TABLE, TABS_IN_ALL
from games.live.push_threads import off_loop
from games.live.sessions import Scope, SocketSession, session_digest
from games.models import TableSocket
from games.services import clocks, presence

# At one place (a few tabs of a table or a tournament) and at all of them together (a
# turn-based player's many games in tabs). An address is shared by the people behind one
# network (a household, a school): its caps are larger, and a guest, whose session is theirs to
# make up, is counted by its address alone.
SOCKETS_AT_A_TABLE = 6
SOCKETS_IN_ALL = 40
ADDRESS_SOCKETS_AT_A_TABLE = 24
ADDRESS_SOCKETS_IN_ALL = 80

PAIRING = "pairing"


def tournament_place(tournament_id: int) -> str:
    """A tournament page's socket's place."""
    return f"tournament:{tournament_id}"


@dataclass(frozen=True)
class Owner:
    """Whose socket: its session's digest (a guest's, its address's), and its address's digest
    ("" when unknown: a test's or a bench's socket has none, and no cap)."""

    key: str = ""
    address: str = ""


def owner_of(scope: Scope, session: SocketSession | None) -> Owner:
    """The socket's owner, from its logged-in session and its client address (as client_ip finds
    it behind PROXY_COUNT proxies). A logged-in session on this host's own address (loopback: a
    bench's or a developer's browsers, a proxy on this host left without PROXY_COUNT) is counted
    by its session alone: that address is everyone's there, and capping it would cap the site."""
    client = scope.get("client")
    peer = str(client[0]) if client else None
    found = socket_ip(scope.get("headers", []), peer)
    address = ""
    if found:
        address = presence.ADDRESS_OWNER + hashlib.sha256(found.encode()).hexdigest()[:32]
    if session is not None:
        key = presence.SESSION_OWNER + session_digest(session.key)
        return Owner(key, "" if loopback(found) else address)
    return Owner(address, address)


def loopback(address: str | None) -> bool:
    """Whether the address is this host's own."""
    try:
        return address is not None and ipaddress.ip_address(address).is_loopback
    except ValueError:
        return False


@dataclass(frozen=True)
class Admitted:
    """What opening a socket's row found: the close code of the cap it passed (None: the row
    is kept), and whether its session held another socket at the same place already."""

    code: int | None = None
    again: bool = False


def admit(
    channel: str,
    owner: Owner,
    *,
    game_id: int | None = None,
    user_id: int | None = None,
    place: str = "",
) -> Admitted:
    """The socket's row written, unless its owner passes a cap with it (then none is kept).

    The row is written before the count, so two sockets opening at once in two processes each
    count the other: neither gets past a cap (at worst both are refused)."""
    TableSocket.objects.create(
        channel=channel,
        game_id=game_id,
        place=place,
        user_id=user_id,
        process=presence.PROCESS,
        open=True,
        seen_at=clocks.now(),
        told=presence.HERE,
        owner=owner.key,
        address=owner.address,
    )
    here = Q(game_id=game_id) if game_id is not None else Q(place=place)
    counted = counts(owner, here)
    code = over_cap(owner, counted)
    if code is not None:
        TableSocket.objects.filter(channel=channel).delete()
        return Admitted(code)
    again = counted[0] > 1 and owner.key.startswith(presence.SESSION_OWNER)
    return Admitted(None, again)


def counts(owner: Owner, here: Q) -> tuple[int, int, int, int]:
    """The owner's live open sockets at this place and in all, then its address's (one query)."""
    live_since = clocks.now() - timedelta(seconds=settings.PRESENCE_STALE_SECONDS)
    rows = TableSocket.objects.filter(open=True, seen_at__gte=live_since)
    mine = Q(owner=owner.key) if owner.key else Q(pk__in=[])
    theirs = Q(address=owner.address) if owner.address else Q(pk__in=[])
    found = rows.filter(mine | theirs).aggregate(
        here=Count("pk", filter=mine & here),
        everywhere=Count("pk", filter=mine),
        address_here=Count("pk", filter=theirs & here),
        address_everywhere=Count("pk", filter=theirs),
    )
    return found["here"], found["everywhere"], found["address_here"], found["address_everywhere"]


def over_cap(owner: Owner, counted: tuple[int, int, int, int]) -> int | None:
    """The close code of the cap these counts pass (at one place first), or None."""
    here, everywhere, address_here, address_everywhere = counted
    at_a_place, in_all = SOCKETS_AT_A_TABLE, SOCKETS_IN_ALL
    if owner.key.startswith(presence.ADDRESS_OWNER):  # a guest: their address is their session
        at_a_place, in_all = ADDRESS_SOCKETS_AT_A_TABLE, ADDRESS_SOCKETS_IN_ALL
    if here > at_a_place or address_here > ADDRESS_SOCKETS_AT_A_TABLE:
        return TABS_AT_TABLE
    if everywhere > in_all or address_everywhere > ADDRESS_SOCKETS_IN_ALL:
        return TABS_IN_ALL
    return None


def released(channel: str) -> None:
    """A socket not at a table closed: its row goes (it keeps nobody here)."""
    TableSocket.objects.filter(channel=channel, game=None).delete()


class Capped(Protocol):
    """A socket that is not at a table (the waiting page's, a tournament's: games.live.socket)."""

    channel_name: str


async def release(consumer: Capped) -> None:
    """The socket closed: its row (if it was admitted, games.live.socket.Socket.arrive) goes."""
    await off_loop(released)(consumer.channel_name)
