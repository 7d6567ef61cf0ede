"""Quick pairing on two Daphne processes sharing PostgreSQL and Redis: twenty people press "Find
a game" at once, half on each process, and every one of them ends on their own table's page.

Each person is a browser-free client doing what the lobby's page does: the press (HTMX), then
either the redirect to the table, or the waiting panel and its socket (pairing.js: the socket's
address carries the panel's data-since), which sends the page to the table.
"""

from __future__ import annotations

import asyncio
import os
import re
from collections.abc import Iterator
from urllib.parse import quote

import httpx
import pytest
from channels.db import database_sync_to_async
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed
from websockets.typing import Origin

from accounts.models import User
from bench.web.site import Site
from games.models import Game, Seat
from tests.conftest import needs_env, own_prefix
from tests.support.daphnes import daphnes
from tests.support.sockets import session_of

pytestmark = [
    needs_env("DATABASE_URL"),
    needs_env("REDIS_URL"),
    pytest.mark.django_db(transaction=True),
    pytest.mark.xdist_group("daphne-processes"),
]

CROWD = 20
LOOK = {"kind": "cakehalla", "pace": "fast", "fewest": "2", "most": "2", "bots_after": ""}
GO = re.compile(r'<template id="page-go" data-url="(/games/\d+/)">')
SINCE = re.compile(r'id="pairing-waiting"[^>]*?(?: data-since="([^"]*)")?>')
PATIENCE = 60.0  # a guard against a hang on a loaded machine, not a measure


@pytest.fixture
def two_processes(transactional_db: None) -> Iterator[Site]:
    """Two Daphne processes on the test's database and the shared Redis."""
    with daphnes(2, os.environ["REDIS_URL"], own_prefix("pairing")) as site:
        yield site


def people(count: int) -> list[tuple[int, str]]:
    """`count` new people, each with a session: (their id, the session's key)."""
    made = []
    for n in range(count):
        user = User.objects.create_user(f"baker{n:02d}", password="a-long-baking-secret")
        made.append((user.pk, session_of(user)))
    return made


async def waiting_page(base: str, session: str, since: str) -> str:
    """The waiting panel's socket, as pairing.js opens it: the table it sends the page to, or ""
    if it says the search ended (or closes) without one."""
    url = base.replace("http://", "ws://") + "/ws/pairing/"
    if since:
        url += "?since=" + quote(since)
    async with connect(
        url, additional_headers={"Cookie": f"sessionid={session}"}, origin=Origin(base)
    ) as socket:
        try:
            while True:
                html = str(await socket.recv(decode=True))
                found = GO.search(html)
                if found:
                    return found.group(1)
                if "pairing-ended" in html:
                    return ""
        except ConnectionClosed:
            return ""


async def find_a_game(base: str, session: str) -> str:
    """Press "Find a game" on the lobby's page: the table the page ends on, or "" if it shows
    the forms again (or a panel whose socket never takes it anywhere)."""
    async with httpx.AsyncClient(base_url=base, timeout=PATIENCE) as http:
        http.cookies.set("sessionid", session)
        assert (await http.get("/")).status_code == 200
        headers = {"HX-Request": "true", "X-CSRFToken": str(http.cookies["csrftoken"])}
        response = await http.post("/pairing/look/", data=LOOK, headers=headers)
        assert response.status_code == 200, response.status_code
        if "HX-Redirect" in response.headers:
            return response.headers["HX-Redirect"]
        panel = SINCE.search(response.text)
        if panel is None:
            return ""  # the forms: the page shows nothing of a table
        return await waiting_page(base, session, panel.group(1) or "")


def tables_of(ids: list[int]) -> dict[int, str]:
    """Each person's running table (its address)."""
    seats = Seat.objects.filter(user_id__in=ids, bot="", game__status=Game.Status.RUNNING)
    return {s.user_id: s.game.get_absolute_url() for s in seats.select_related("game")}


async def test_twenty_people_looking_at_once_on_two_processes_all_end_on_their_table(
    two_processes: Site,
) -> None:
    crowd = await database_sync_to_async(people)(CROWD)
    bases = two_processes.urls
    async with asyncio.timeout(PATIENCE):
        ended_on = await asyncio.gather(
            *(find_a_game(bases[n % 2], session) for n, (_, session) in enumerate(crowd))
        )
    tables = await database_sync_to_async(tables_of)([pk for pk, _ in crowd])
    assert len(tables) == CROWD, "everyone is seated once"
    told = sum(page == tables[pk] for page, (pk, _) in zip(ended_on, crowd, strict=True))
    assert told == CROWD, f"{told} of {CROWD} people were taken to their table"
