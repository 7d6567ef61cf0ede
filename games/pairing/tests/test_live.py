"""The waiting page's socket (/ws/pairing/): it keeps the search, shows it, and goes to the table;
a table page of the same person follows too."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import quote

import pytest
from channels.db import database_sync_to_async
from django.template.loader import render_to_string

from accounts.models import User
from bakery_site.asgi import application
from games import events
from games import services as tables
from games.live import drain
from games.live.protocol import SERVICE_RESTART
from games.models import Game
from games.pairing import services
from games.pairing.models import Seek
from tests.support.sockets import Communicator, closed_with, open_board, session_of, socket

pytestmark = pytest.mark.django_db(transaction=True)

GO = re.compile(r'<template id="page-go" data-url="(/games/\d+/)"></template>')


async def waiting_socket(
    user: User | None, origin: bytes = b"http://testserver", query: str = ""
) -> Any:
    """The waiting page's socket, logged in as the user (anonymous for None)."""
    headers = [(b"origin", origin)]
    if user is not None:
        session = await database_sync_to_async(session_of)(user)
        headers.append((b"cookie", f"sessionid={session}".encode()))
    path = f"/ws/pairing/?{query}" if query else "/ws/pairing/"
    return Communicator(application, path, headers=headers)


def look(user: User) -> None:
    services.look(user, "cakehalla", "fast", 2, 2)


def paired_silently(user: User, monkeypatch: pytest.MonkeyPatch) -> str:
    """Pair the person with a newcomer, the pass's announcement lost on the way; the table."""
    monkeypatch.setattr(events.seated, "tell", lambda user_id, url: None)
    look(User.objects.create_user("dora", password="a-long-baking-secret"))
    [paired] = services.pass_pool("cakehalla", "fast")
    assert user.pk in paired.people
    return paired.url


async def next_go(ws: Any) -> str:
    """The table the socket sends its page to, after any panels on their way."""
    while True:
        found = GO.search(await ws.receive_from())
        if found:
            return found.group(1)


async def test_a_paired_persons_waiting_socket_is_sent_to_the_table(
    player: User, rival: User
) -> None:
    await database_sync_to_async(look)(player)
    ws = await waiting_socket(player)
    connected, _ = await ws.connect()
    assert connected
    assert "Looking for a Cakehalla game" in await ws.receive_from()
    await database_sync_to_async(look)(rival)
    [paired] = await database_sync_to_async(services.pass_pool)("cakehalla", "fast")
    assert await next_go(ws) == paired.url
    assert await closed_with(ws) == 1000


async def test_a_lost_announcement_is_made_up_by_the_next_beat(
    player: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    await database_sync_to_async(look)(player)
    ws = await waiting_socket(player)
    await ws.connect()
    assert "Looking for a Cakehalla game" in await ws.receive_from()
    url = await database_sync_to_async(paired_silently)(player, monkeypatch)
    assert await next_go(ws) == url


async def test_the_waiting_socket_keeps_the_search_alive(player: User) -> None:
    await database_sync_to_async(look)(player)
    await database_sync_to_async(Seek.objects.update)(last_seen="2000-01-01T00:00:00Z")
    ws = await waiting_socket(player)
    await ws.connect()
    assert "Looking for a Cakehalla game" in await ws.receive_from()
    seek = await database_sync_to_async(Seek.objects.get)()
    assert seek.last_seen.year > 2000
    await ws.disconnect()


async def test_a_search_stopped_elsewhere_ends_the_waiting_socket(player: User) -> None:
    await database_sync_to_async(look)(player)
    ws = await waiting_socket(player)
    await ws.connect()
    await ws.receive_from()
    await database_sync_to_async(services.stop)(player)
    while True:
        html = await ws.receive_from()
        if "pairing-ended" in html:
            break
        assert "Looking for" in html
    assert await closed_with(ws) == 1000


async def test_an_anonymous_waiting_socket_is_closed_as_logged_out() -> None:
    ws = await waiting_socket(None)
    await ws.connect()
    assert await closed_with(ws) == 4401


async def test_a_table_page_of_the_person_paired_goes_to_the_new_table(
    player: User, rival: User, outsider: User
) -> None:
    days = await database_sync_to_async(tables.seat_people)(
        "cakehalla", [player, outsider], pace=Game.Pace.DAY1
    )
    ws = await socket(days, player)
    await open_board(ws)
    await database_sync_to_async(look)(player)
    await database_sync_to_async(look)(rival)
    [paired] = await database_sync_to_async(services.pass_pool)("cakehalla", "fast")
    assert await next_go(ws) == paired.url
    await ws.disconnect()


@pytest.mark.usefixtures("fresh_drain")
async def test_a_restarting_process_sends_the_waiting_page_elsewhere_at_once(player: User) -> None:
    """A deploy (games/live/drain.py): the waiting socket closes with 3012, which pairing.js
    follows with a quick reconnect; the search itself stays."""
    await database_sync_to_async(look)(player)
    ws = await waiting_socket(player)
    await ws.connect()
    await ws.receive_from()
    (waiting,) = list(drain.STATE.sockets)
    await waiting.restart()
    assert await closed_with(ws) == SERVICE_RESTART
    assert await database_sync_to_async(Seek.objects.filter(user=player).exists)()


def waiting_panel_since(user: User) -> str:
    """The start of the search as the person's waiting panel gives it to its socket."""
    from games.pairing.panels import section_context

    html = render_to_string("pairing/_find.html", section_context(user))
    found = re.search(r'id="pairing-waiting"[^>]* data-since="([^"]+)"', html)
    assert found, html
    return found.group(1)


async def test_a_waiting_socket_opened_after_the_pairing_goes_to_the_table(
    player: User, rival: User
) -> None:
    """A looks and gets the panel; B looks and is seated with A before A's socket is open (the
    pass's announcement reached no socket of A's): A's first beat takes A to the table."""
    await database_sync_to_async(look)(player)
    since = await database_sync_to_async(waiting_panel_since)(player)
    await database_sync_to_async(look)(rival)
    [paired] = await database_sync_to_async(services.pass_pool)("cakehalla", "fast")
    ws = await waiting_socket(player, query=f"since={quote(since)}")
    connected, _ = await ws.connect()
    assert connected
    assert await next_go(ws) == paired.url
    assert await closed_with(ws) == 1000


async def test_a_waiting_socket_without_the_searchs_start_still_ends_as_before(
    player: User,
) -> None:
    ws = await waiting_socket(player, query="since=not-a-time")
    await ws.connect()
    assert "pairing-ended" in await ws.receive_from()
    assert await closed_with(ws) == 1000
