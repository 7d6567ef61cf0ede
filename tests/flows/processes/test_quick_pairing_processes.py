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
from websockets.exceptions import ConnectionClosed, WebSocketException
from websockets.typing import Origin

from accounts.models import User
from bench.web.site import Site
from games.models import Game, Seat
from games.pairing.models import Seek
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


class Page:
    """One person's lobby page, on `base` (and on `fallback` once `base` is gone, as a load
    balancer would send it): it presses "Find a game" and ends on a table's address, or "" if
    it shows the forms again (or a panel whose socket never takes it anywhere)."""

    def __init__(
        self, base: str, session: str, fallback: str = "", look: dict[str, str] = LOOK
    ) -> None:
        self.base = base
        self.look = look
        self.fallback = fallback or base
        self.session = session
        self.headers: dict[str, str] = {}
        self.answered = asyncio.Event()
        # The page has an answer to show (a table, the forms, or the waiting panel): its look is
        # in the database, or ended. Until every page still going has one, nobody counts as
        # waiting alone (on a loaded machine the first looks may not have reached a process yet).
        self.settled = asyncio.Event()

    def client(self, base: str) -> httpx.AsyncClient:
        http = httpx.AsyncClient(base_url=base, timeout=PATIENCE)
        http.cookies.set("sessionid", self.session)
        if "X-CSRFToken" in self.headers:
            http.cookies.set("csrftoken", self.headers["X-CSRFToken"])
        return http

    async def open(self) -> None:
        """The lobby, and with it the CSRF token its forms send."""
        async with self.client(self.base) as http:
            assert (await http.get("/")).status_code == 200
            token = str(http.cookies["csrftoken"])
        self.headers = {"HX-Request": "true", "X-CSRFToken": token}

    async def find_a_game(self) -> str:
        """The press, and what the page does with its answer (pairing.js)."""
        try:
            async with self.client(self.base) as http:
                response = await http.post("/pairing/look/", data=self.look, headers=self.headers)
        except httpx.TransportError:
            return await self.ask_again()  # the answer was lost with its process
        finally:
            self.answered.set()
        if response.status_code >= 500:
            return await self.ask_again()
        assert response.status_code == 200, response.status_code
        return await self.follow(response, self.base)

    async def ask_again(self) -> str:
        """pairing.js after a press got no answer: the section again, from a process that is up."""
        async with self.client(self.fallback) as http:
            response = await http.get("/pairing/", headers=self.headers)
        return await self.follow(response, self.fallback)

    async def follow(self, response: httpx.Response, base: str) -> str:
        """The table an answer sends the page to, or the panel's socket's."""
        self.settled.set()
        if "HX-Redirect" in response.headers:
            return response.headers["HX-Redirect"]
        panel = SINCE.search(response.text)
        if panel is None:
            return ""  # the forms: the page shows nothing of a table
        return await self.wait(base, panel.group(1) or "")

    async def wait(self, base: str, since: str) -> str:
        """The waiting panel's socket, as pairing.js opens it (again, elsewhere, after a close
        that is not final): the table it sends the page to, or "" if the search ended."""
        url = base.replace("http://", "ws://") + "/ws/pairing/"
        if since:
            url += "?since=" + quote(since)
        try:
            async with connect(
                url, additional_headers={"Cookie": f"sessionid={self.session}"}, origin=Origin(base)
            ) as socket:
                while True:
                    html = str(await socket.recv(decode=True))
                    found = GO.search(html)
                    if found:
                        return found.group(1)
                    if "pairing-ended" in html:
                        return ""
        except ConnectionClosed as closed:
            code = closed.rcvd.code if closed.rcvd is not None else None
            if code == 1000 or (code is not None and 4000 <= code <= 4999) or base == self.fallback:
                return ""
        except (OSError, WebSocketException):  # the process is gone, or going
            if base == self.fallback:
                return ""
        return await self.wait(self.fallback, since)


def tables_of(ids: list[int]) -> dict[int, str]:
    """Each person's running table (its address)."""
    seats = Seat.objects.filter(user_id__in=ids, bot="", game__status=Game.Status.RUNNING)
    return {s.user_id: s.game.get_absolute_url() for s in seats.select_related("game")}


async def test_twenty_people_looking_at_once_on_two_processes_all_end_on_their_table(
    two_processes: Site,
) -> None:
    crowd = await database_sync_to_async(people)(CROWD)
    bases = two_processes.urls
    pages = [Page(bases[n % 2], session) for n, (_, session) in enumerate(crowd)]
    async with asyncio.timeout(PATIENCE):
        await asyncio.gather(*(page.open() for page in pages))
        ended_on = await asyncio.gather(*(page.find_a_game() for page in pages))
    tables = await database_sync_to_async(tables_of)([pk for pk, _ in crowd])
    assert len(tables) == CROWD, "everyone is seated once"
    told = sum(page == tables[pk] for page, (pk, _) in zip(ended_on, crowd, strict=True))
    assert told == CROWD, f"{told} of {CROWD} people were taken to their table"


def waiting_alone(ids: list[int]) -> bool:
    """Whether these people are unseated and at most one of them still looks: nobody more can
    be seated (a table needs two)."""
    seated = Seat.objects.filter(user_id__in=ids, bot="", game__status=Game.Status.RUNNING)
    return not seated.exists() and Seek.objects.filter(user_id__in=ids).count() <= 1


async def test_a_process_killed_mid_pass_leaves_nobody_seated_without_being_told(
    two_processes: Site,
) -> None:
    """Half the presses go to a process that is killed once the first of them is answered (the
    others mid-pass); their pages then reach the other process, as behind a load balancer, and
    ask again (pairing.js). Everyone seated ends on their table's page."""
    crowd = await database_sync_to_async(people)(CROWD)
    up, doomed = two_processes.urls
    look = {**LOOK, "most": "4"}  # any leftover of two or more sits down once settled
    pages = [
        Page(doomed, session, fallback=up, look=look) if n % 2 else Page(up, session, look=look)
        for n, (_, session) in enumerate(crowd)
    ]

    async def kill_once_answered() -> None:
        await asyncio.wait(
            [asyncio.ensure_future(p.answered.wait()) for p in pages if p.base == doomed],
            return_when=asyncio.FIRST_COMPLETED,
        )
        two_processes.daphnes[1].kill()  # a process this test started
        two_processes.daphnes[1].wait(timeout=10)

    async with asyncio.timeout(PATIENCE):
        await asyncio.gather(*(page.open() for page in pages))
        killer = asyncio.ensure_future(kill_once_answered())
        running = {
            asyncio.ensure_future(page.find_a_game()): (pk, page)
            for page, (pk, _) in zip(pages, crowd, strict=True)
        }
        pending = set(running)
        while pending:  # until every page ended, or the one left waits alone
            _, pending = await asyncio.wait(pending, timeout=1)
            settled = all(running[t][1].settled.is_set() for t in pending)
            if (
                pending
                and settled
                and await database_sync_to_async(waiting_alone)([running[t][0] for t in pending])
            ):
                for task in pending:
                    task.cancel()
                # a cancelled task ends at its next step: wait for it, or its result is unset
                await asyncio.gather(*pending, return_exceptions=True)
                break
        await killer
    ended_on = {pk: t.result() for t, (pk, _) in running.items() if not t.cancelled()}
    tables = await database_sync_to_async(tables_of)([pk for pk, _ in crowd])
    told = sum(ended_on.get(pk) == table for pk, table in tables.items())
    assert told == len(tables), f"{told} of {len(tables)} people seated were taken to their table"
    assert len(tables) >= CROWD // 2, f"only {len(tables)} of {CROWD} were seated"
