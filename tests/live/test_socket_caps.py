"""How many sockets one session may hold open: at one table and at every table together, counted
by the sockets' rows across processes, and closed with a code the page explains."""

from __future__ import annotations

from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.conf import settings
from django.utils import timezone

from accounts.models import User
from bakery_site.asgi import application
from games.live import sessions
from games.models import Game, TableSocket
from games.services import presence
from tests.conftest import client_for
from tests.support.sockets import (
    Communicator,
    closed_with,
    open_board,
    socket,
    socket_of,
)

pytestmark = pytest.mark.django_db(transaction=True)

TABS_AT_TABLE = 4408
TABS_IN_ALL = 4409


def guest_from(game: Game, address: str, cookie: str = "") -> Communicator:
    """A guest's socket (not logged in) from this address, behind one proxy."""
    headers = [(b"origin", b"http://testserver"), (b"x-forwarded-for", address.encode())]
    if cookie:
        headers.append((b"cookie", cookie.encode()))
    return Communicator(application, f"/ws/games/{game.pk}/", headers=headers)


def rows_of(game: Game) -> int:
    return TableSocket.objects.filter(game=game).count()


async def test_one_session_holds_six_sockets_at_a_table_and_the_seventh_is_told_why(
    running_game: Game, player: User
) -> None:
    client = await database_sync_to_async(client_for)(player)
    tabs = [socket_of(running_game, client) for _ in range(presence.SOCKETS_AT_A_TABLE)]
    for ws in tabs:
        await open_board(ws)
    one_more = socket_of(running_game, client)
    connected, _ = await one_more.connect()
    assert connected  # accepted, then closed with the code the page explains
    assert await closed_with(one_more) == TABS_AT_TABLE
    assert await database_sync_to_async(rows_of)(running_game) == presence.SOCKETS_AT_A_TABLE
    phone = await socket(running_game, player)  # the same person in another session
    await open_board(phone)
    await tabs[0].disconnect()
    again = socket_of(running_game, client)  # a tab closed: its place is free
    await open_board(again)
    for ws in [*tabs[1:], phone, again]:
        await ws.disconnect()


async def test_sockets_another_process_holds_count_and_dead_ones_do_not(
    running_game: Game, player: User
) -> None:
    client = await database_sync_to_async(client_for)(player)
    owner = presence.SESSION_OWNER + sessions.session_digest(client.cookies["sessionid"].value)

    def held_elsewhere(count: int, seen_ago: float) -> None:
        seen_at = timezone.now() - timedelta(seconds=seen_ago)
        for n in range(count):
            TableSocket.objects.create(
                game=running_game,
                user=player,
                channel=f"elsewhere-{seen_ago}-{n}",
                process="another-process",
                seen_at=seen_at,
                owner=owner,
            )

    stale = settings.PRESENCE_STALE_SECONDS + 5
    await database_sync_to_async(held_elsewhere)(presence.SOCKETS_AT_A_TABLE, stale)
    mine = socket_of(running_game, client)
    await open_board(mine)  # the rows of a process that died count as closed
    await database_sync_to_async(held_elsewhere)(presence.SOCKETS_AT_A_TABLE - 1, 0)
    refused = socket_of(running_game, client)
    await refused.connect()
    assert await closed_with(refused) == TABS_AT_TABLE
    await mine.disconnect()


async def test_one_session_holds_a_few_dozen_sockets_at_all_tables(
    running_game: Game, open_table: Game, player: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(presence, "SOCKETS_IN_ALL", 2)
    client = await database_sync_to_async(client_for)(player)
    held = [socket_of(running_game, client), socket_of(running_game, client)]
    for ws in held:
        await open_board(ws)
    elsewhere = socket_of(open_table, client)
    await elsewhere.connect()
    assert await closed_with(elsewhere) == TABS_IN_ALL
    for ws in held:
        await ws.disconnect()


async def test_guests_are_counted_by_their_address_whatever_cookie_they_send(
    running_game: Game, settings: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings.PROXY_COUNT = 1  # type: ignore[attr-defined]
    monkeypatch.setattr(presence, "ADDRESS_SOCKETS_AT_A_TABLE", 2)
    held = [guest_from(running_game, "203.0.113.7") for _ in range(2)]
    for ws in held:
        await open_board(ws)
    # A forged first hop and a made-up session: still the same address.
    forged = guest_from(running_game, "198.51.100.1, 203.0.113.7", "sessionid=madeupmadeup")
    await forged.connect()
    assert await closed_with(forged) == TABS_AT_TABLE
    neighbour = guest_from(running_game, "203.0.113.8")
    await open_board(neighbour)
    for ws in [*held, neighbour]:
        await ws.disconnect()
