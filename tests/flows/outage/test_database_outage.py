"""PostgreSQL going away mid-evening, as a restart does it, under a real Daphne process.

A restart breaks every connection the site holds ("terminating connection due to administrator
command") and refuses new ones until the server is up again. The test does both to the site's
connections to its own test database (ended, and refused for a while), never to the shared server,
so the rest of the suite runs on beside it. The site must answer every move in words, keep
every socket open, heal the boards once the database is back, and log the outage in one line each
way (issue 30, point 11).
"""

from __future__ import annotations

import asyncio
import json
import os
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from typing import Any

import psycopg
import pytest
from channels.db import database_sync_to_async
from django.db import connection

from accounts.models import User
from bench.web.site import Site
from games.models import Game
from games.outages import WORDS
from tests.conftest import needs_env, own_prefix
from tests.live.test_socket_moves import keep_fields
from tests.support.daphnes import Person, daphnes
from tests.support.sockets import MADE, session_of

pytestmark = [
    needs_env("DATABASE_URL"),
    needs_env("REDIS_URL"),
    pytest.mark.django_db(transaction=True),
    pytest.mark.xdist_group("daphne-processes"),
]

SITE = "bakehouse-outage"  # the application name of the site's connections (PGAPPNAME)


def maintenance() -> psycopg.Connection[Any]:
    """A connection to the server's maintenance database, as the test database's own user (a
    database cannot refuse or end connections to itself from inside)."""
    db = connection.settings_dict
    return psycopg.connect(
        host=db["HOST"] or "127.0.0.1",
        port=db["PORT"] or 5432,
        user=db["USER"],
        password=db["PASSWORD"] or None,
        dbname="postgres",
        autocommit=True,
    )


def database_reachable(reachable: bool) -> None:
    """Away: the test database as a restart leaves it for the site, every connection ended at
    once (all signalled together, then waited for: ended one by one with a wait each, a loaded
    machine let a sweep's connection answer between two of them, and the site rightly logged
    the outage twice) and no new one allowed. Back: connections allowed again."""
    db = connection.settings_dict
    site = "FROM pg_stat_activity WHERE datname = %s AND application_name = %s"
    with maintenance() as server:
        allow = "true" if reachable else "false"
        server.execute(f'ALTER DATABASE "{db["NAME"]}" WITH ALLOW_CONNECTIONS {allow}')
        if reachable:
            return
        server.execute(f"SELECT pg_terminate_backend(pid) {site}", [db["NAME"], SITE])
        deadline = time.monotonic() + 30
        while server.execute(f"SELECT count(*) {site}", [db["NAME"], SITE]).fetchone() != (0,):
            assert time.monotonic() < deadline, "the site's connections did not end"
            time.sleep(0.05)


@asynccontextmanager
async def database_away() -> AsyncIterator[None]:
    """The database away for the site while the block runs."""
    await asyncio.to_thread(database_reachable, False)
    try:
        yield
    finally:
        await asyncio.to_thread(database_reachable, True)


async def send_move(person: Person, fields: dict[str, str], timeout: float = 30) -> str:
    """Send a move on the person's socket as live.js does; the socket's answer to it (pushes
    that come first are passed over). No answer at all fails the test."""
    assert person.socket is not None
    await person.socket.send(json.dumps({"type": "play", "fields": fields}))
    return await person.move_answer(timeout)


def logged(site: Site) -> str:
    return "".join(log.read_text(errors="replace") for log in site.folder.glob("daphne-*.log"))


@pytest.fixture
def one_process(transactional_db: None) -> Iterator[Site]:
    """One Daphne process (DEBUG off) on the test's database and the shared Redis, its
    connections named SITE; its pool gives up on a connection after 2 s, it sweeps every
    second."""
    extra = {"DB_POOL_TIMEOUT": "2", "BOT_SWEEP_SECONDS": "1", "PGAPPNAME": SITE}
    with daphnes(1, os.environ["REDIS_URL"], own_prefix("outage"), **extra) as site:
        yield site


async def test_a_database_restart_is_answered_in_words_and_play_goes_on(
    one_process: Site, running_game: Game, player: User, rival: User
) -> None:
    url = one_process.urls[0]
    people = {
        user.pk: Person(url, await database_sync_to_async(session_of)(user))
        for user in (player, rival)
    }
    me, them = people[player.pk], people[rival.pk]
    fields = database_sync_to_async(keep_fields)
    try:
        for person in people.values():
            await person.open_socket(running_game.pk)
        assert MADE.search(await send_move(me, await fields(running_game, player)))

        rival_move = await fields(running_game, rival)
        await them.csrf(running_game)  # the page's token, from its page loaded before
        async with database_away():
            answer = await send_move(them, rival_move)
            assert WORDS in answer and not MADE.search(answer)  # told, and nothing was made
            posted = await them.keep(running_game, "any-card", 0)
            assert posted.status_code == 503 and WORDS in posted.text

        # Back: pressed again as the words ask (each press answered), the move is made once the
        # site reaches the database, and the other socket is brought up to it.
        deadline = time.monotonic() + 30
        while True:
            again = await send_move(them, await fields(running_game, rival))
            made = MADE.search(again)
            if made is not None:
                break
            assert WORDS in again, again[:500]
            assert time.monotonic() < deadline, "the site never reached its database again"
            await asyncio.sleep(0.5)
        await me.until_version(int(made.group(1)))
        deadline = time.monotonic() + 20
        while "The database is back" not in logged(one_process):  # the next sweep says so
            assert time.monotonic() < deadline, logged(one_process)[-3000:]
            await asyncio.sleep(0.2)
        for person in people.values():  # neither socket was closed
            assert person.socket is not None and person.socket.close_code is None
    finally:
        for person in people.values():
            await person.close()
    log = logged(one_process)
    assert log.count("The database went away") == 1, log[-3000:]
    assert log.count("The database is back") == 1, log[-3000:]
    assert "Traceback" not in log, log[-3000:]
    assert [person.closes for person in people.values()] == [[], []]
