"""How many sockets one session, and one client address, may hold open: at one place (a table, a
tournament, the waiting page) and at all of them together, counted by the sockets' rows across
processes, over every socket route the site has, and closed with a code the page explains."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.conf import settings
from django.utils import timezone

from accounts.models import User
from bakery_site.asgi import application
from games.live import caps, sessions
from games.models import Game, TableSocket
from games.pairing import services as pairing
from games.routing import websocket_urlpatterns
from games.services import presence
from games.tournaments import services as tournaments
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
    tabs = [socket_of(running_game, client) for _ in range(caps.SOCKETS_AT_A_TABLE)]
    for ws in tabs:
        await open_board(ws)
    one_more = socket_of(running_game, client)
    connected, _ = await one_more.connect()
    assert connected  # accepted, then closed with the code the page explains
    assert await closed_with(one_more) == TABS_AT_TABLE
    assert await database_sync_to_async(rows_of)(running_game) == caps.SOCKETS_AT_A_TABLE
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
    await database_sync_to_async(held_elsewhere)(caps.SOCKETS_AT_A_TABLE, stale)
    mine = socket_of(running_game, client)
    await open_board(mine)  # the rows of a process that died count as closed
    await database_sync_to_async(held_elsewhere)(caps.SOCKETS_AT_A_TABLE - 1, 0)
    refused = socket_of(running_game, client)
    await refused.connect()
    assert await closed_with(refused) == TABS_AT_TABLE
    await mine.disconnect()


async def test_one_session_holds_a_few_dozen_sockets_at_all_tables(
    running_game: Game, open_table: Game, player: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(caps, "SOCKETS_IN_ALL", 2)
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
    monkeypatch.setattr(caps, "ADDRESS_SOCKETS_AT_A_TABLE", 2)
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


# --- every socket route ---------------------------------------------------------------------

ROUTES = [str(route.pattern) for route in websocket_urlpatterns]


@pytest.fixture
def places(running_game: Game, make_user: Callable[[str], User]) -> dict[str, object]:
    """What each route's path takes (a new route's argument must be added here), and a person
    who may open every route: watching the table, looking for a game, at a tournament's page."""
    watcher = make_user("carol")
    pairing.look(watcher, "midnight-bakery", "fast", 2, 2)
    when = timezone.now() + timedelta(hours=1)
    tournament = tournaments.create(
        None,
        tournaments.Rules("Cap Cup", "midnight-bakery", "arena", "fast", when, 3, minutes=30),
    )
    return {
        "game_id": running_game.pk,
        "seat": 0,
        "tournament_id": tournament.pk,
        "who": watcher,
    }


def path_of(route: str, places: dict[str, object]) -> str:
    """The route's path with its arguments filled in."""
    return "/" + re.sub(r"<\w+:(\w+)>", lambda m: str(places[m.group(1)]), route)


def on(path: str, cookie: str, address: str = "") -> Communicator:
    """A socket to this path in this session (from this address, behind one proxy)."""
    headers = [(b"origin", b"http://testserver"), (b"cookie", f"sessionid={cookie}".encode())]
    if address:
        headers.append((b"x-forwarded-for", address.encode()))
    return Communicator(application, path, headers=headers)


async def held(ws: Communicator) -> None:
    """The socket opened and sent its page's first part: it holds its place."""
    connected, _ = await ws.connect()
    assert connected
    assert await ws.receive_from()


@pytest.mark.parametrize("route", ROUTES)
async def test_every_socket_route_holds_the_cap_of_one_session(
    route: str, places: dict[str, object], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(caps, "SOCKETS_AT_A_TABLE", 2)
    path = path_of(route, places)
    cookie = await database_sync_to_async(sessions_of)(places["who"], 1)
    tabs = [on(path, cookie[0]) for _ in range(2)]
    for ws in tabs:
        await held(ws)
    one_more = on(path, cookie[0])
    connected, _ = await one_more.connect()
    assert connected  # accepted, then closed with the code the page explains
    assert await closed_with(one_more) == TABS_AT_TABLE
    await tabs[0].disconnect()
    again = on(path, cookie[0])  # a tab closed: its place is free
    await held(again)
    for ws in [tabs[1], again]:
        await ws.disconnect()


@pytest.mark.parametrize("route", ROUTES)
async def test_every_socket_route_holds_the_cap_of_one_address_whatever_the_sessions(
    route: str, places: dict[str, object], settings: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings.PROXY_COUNT = 1  # type: ignore[attr-defined]
    monkeypatch.setattr(caps, "ADDRESS_SOCKETS_AT_A_TABLE", 2)
    path = path_of(route, places)
    cookies = await database_sync_to_async(sessions_of)(places["who"], 4)
    tabs = [on(path, cookies[n], "203.0.113.7") for n in range(2)]
    for ws in tabs:
        await held(ws)
    # A third session, a forged first hop: still the same address.
    refused = on(path, cookies[2], "198.51.100.1, 203.0.113.7")
    await refused.connect()
    assert await closed_with(refused) == TABS_AT_TABLE
    neighbour = on(path, cookies[3], "203.0.113.8")
    await held(neighbour)
    for ws in [*tabs, neighbour]:
        await ws.disconnect()


async def test_signed_in_sockets_from_this_hosts_own_address_count_by_session_alone(
    places: dict[str, object], settings: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings.PROXY_COUNT = 1  # type: ignore[attr-defined]
    monkeypatch.setattr(caps, "ADDRESS_SOCKETS_AT_A_TABLE", 2)
    path = path_of("ws/tournaments/<int:tournament_id>/", places)
    cookies = await database_sync_to_async(sessions_of)(places["who"], 3)
    pages = [on(path, cookie, "127.0.0.1") for cookie in cookies]  # a bench, `make run`
    for ws in pages:
        await held(ws)
    for ws in pages:
        await ws.disconnect()


async def test_the_cap_in_all_counts_the_sockets_of_every_route_together(
    places: dict[str, object], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(caps, "SOCKETS_IN_ALL", len(ROUTES) - 1)
    cookie = (await database_sync_to_async(sessions_of)(places["who"], 1))[0]
    opened = [on(path_of(route, places), cookie) for route in ROUTES[:-1]]
    for ws in opened:
        await held(ws)
    last = on(path_of(ROUTES[-1], places), cookie)
    await last.connect()
    assert await closed_with(last) == TABS_IN_ALL
    for ws in opened:
        await ws.disconnect()


def sessions_of(who: object, count: int) -> list[str]:
    """That many fresh sessions of the person."""
    assert isinstance(who, User)
    return [client_for(who).cookies["sessionid"].value for _ in range(count)]
