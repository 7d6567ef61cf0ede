"""A deploy nobody notices: a Daphne process that gets SIGTERM drains (games/live/drain.py).

Two real processes on the test's PostgreSQL and Redis. One of them is stopped while a move it
took is still in flight (held on the game's row lock by the test; or two, pressed by both bakers
in the same instant), or while it pushes a move made on the other: the move is finished and
answered, every socket is closed with 3012 (never dropped), the process exits by itself, and
the socket that reconnects to the other process goes on with every version.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import threading
import time
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path

import httpx
import pytest
from channels.db import database_sync_to_async
from django.db import connection, transaction

from accounts.models import User
from bench.web.site import Site
from games.live.protocol import SERVICE_RESTART
from games.models import Game
from tests.conftest import needs_env, own_prefix
from tests.flows.processes.test_daphne_processes import keeps_now, next_keep, stored_version
from tests.support.daphnes import Person, daphnes
from tests.support.sockets import MADE, session_of, shown_version

pytestmark = [
    needs_env("DATABASE_URL"),
    needs_env("REDIS_URL"),
    pytest.mark.django_db(transaction=True),
    pytest.mark.xdist_group("daphne-processes"),
]

NOTICE = 3.0  # DRAIN_NOTICE_SECONDS: /healthz says "draining" while the process still listens


@pytest.fixture
def two_processes(transactional_db: None) -> Iterator[Site]:
    notice = str(NOTICE)
    with daphnes(
        2, os.environ["REDIS_URL"], own_prefix("drain"), DRAIN_NOTICE_SECONDS=notice
    ) as site:
        yield site


class RowHeld:
    """The game's row locked by another connection, as a slow move would hold it: a move that
    comes meanwhile waits in the database, in flight."""

    def __init__(self, game_id: int) -> None:
        self.game_id = game_id
        self.held = threading.Event()
        self.release = threading.Event()
        self.thread = threading.Thread(target=self.hold, daemon=True)

    def hold(self) -> None:
        try:
            with transaction.atomic():
                Game.objects.select_for_update().get(pk=self.game_id)
                self.held.set()
                self.release.wait(60)
        finally:
            connection.close()

    def __enter__(self) -> RowHeld:
        self.thread.start()
        assert self.held.wait(10)
        return self

    def __exit__(self, *exc: object) -> None:
        self.release.set()
        self.thread.join(10)


def waiting_on_a_lock() -> int:
    """Statements of this database waiting on a lock now (the move held by RowHeld)."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity"
            " WHERE datname = current_database() AND wait_event_type = 'Lock'"
        )
        return int(cursor.fetchone()[0])


async def until(done: Callable[[], Awaitable[object]], timeout: float = 20) -> None:
    """Wait until `done()` comes true."""
    deadline = time.monotonic() + timeout
    while not await done():
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.05)


async def keep_on_socket(
    person: Person, card: str, version: int, moment: str | None = None
) -> None:
    """Keep this pastry as live.js sends a move: the form's fields on the socket."""
    assert person.socket is not None
    action = json.dumps({"type": "keep", "card": card})
    fields = {"action": action, "version": str(version)}
    if moment is not None:
        fields["moment"] = moment
    await person.socket.send(json.dumps({"type": "play", "fields": fields}))


def made_by(game: Game, user_ids: list[int]) -> int:
    """How many moves these people have made at the table."""
    return game.actions.filter(user__in=user_ids).count()


async def pages_on(base: str, *users: User) -> dict[int, Person]:
    """Each person's page on `base`, signed in with a session of their own, by their id."""
    return {user.pk: Person(base, await database_sync_to_async(session_of)(user)) for user in users}


def log_of(site: Site, index: int) -> str:
    return Path(site.folder, f"daphne-{index}.log").read_text(errors="replace")


async def test_sigterm_finishes_a_move_in_flight_answers_it_then_closes_with_3012(
    running_game: Game, player: User, rival: User, two_processes: Site
) -> None:
    stopping, staying = two_processes.urls
    process = two_processes.daphnes[0]
    people = await pages_on(staying, player, rival)
    mover_id, card, version = await database_sync_to_async(next_keep)(running_game, people)
    mover = people[mover_id]
    mover.base = stopping
    watcher = people[rival.pk if mover_id == player.pk else player.pk]
    try:
        assert shown_version(await mover.open_socket(running_game.pk)) == version
        assert shown_version(await watcher.open_socket(running_game.pk)) == version
        idle = httpx.AsyncClient(base_url=stopping)  # a connection kept alive, idle
        assert (await idle.get("/healthz")).status_code == 200
        with RowHeld(running_game.pk):
            await keep_on_socket(mover, card, version)
            await until(lambda: database_sync_to_async(waiting_on_a_lock)(), 20)
            process.send_signal(signal.SIGTERM)
            async with httpx.AsyncClient(base_url=stopping, timeout=5) as http:
                health = await http.get("/healthz")
            assert health.status_code == 503
            assert health.json() == {"ok": False, "draining": True}
            assert process.poll() is None  # the move in flight holds the process
        # Released: the move is stored, answered on its socket, and only then the socket closes.
        made = MADE.search(await mover.move_answer(20))
        assert made is not None and int(made.group(1)) == version + 1
        assert await mover.closed() == SERVICE_RESTART
        await asyncio.to_thread(process.wait, 30)
        assert process.returncode == 0
        assert await database_sync_to_async(stored_version)(running_game) == version + 1
        await watcher.until_version(version + 1)
        assert watcher.closes == []
        # The page comes back to the other process at the version its move made.
        mover.base = staying
        assert shown_version(await mover.open_socket(running_game.pk)) == version + 1
        log = log_of(two_processes, 0)
        assert "Traceback" not in log and "Killed" not in log, log[-3000:]
        assert "0 sockets, 0 requests, 0 HTTP connections left" in log, log[-3000:]
        await idle.aclose()
    finally:
        await mover.close()
        await watcher.close()


async def test_two_people_pressing_at_once_as_sigterm_comes_are_both_made_and_answered(
    running_game: Game, player: User, rival: User, two_processes: Site
) -> None:
    """Both bakers pick in the same instant on the stopping process, their moves in flight as
    SIGTERM arrives: each is made once, answered on its own socket, and only then closed."""
    stopping = two_processes.urls[0]
    process = two_processes.daphnes[0]
    people = await pages_on(stopping, player, rival)
    version = await database_sync_to_async(stored_version)(running_game)
    keeps = await database_sync_to_async(keeps_now)(running_game)
    assert sorted(user for user, _, _ in keeps) == sorted(people)

    async def both_waiting() -> bool:
        return await database_sync_to_async(waiting_on_a_lock)() >= 2

    try:
        for person in people.values():
            assert shown_version(await person.open_socket(running_game.pk)) == version
        with RowHeld(running_game.pk):
            await asyncio.gather(
                *(keep_on_socket(people[u], card, version, moment) for u, card, moment in keeps)
            )
            await until(both_waiting, 20)
            process.send_signal(signal.SIGTERM)
            assert process.poll() is None  # the moves in flight hold the process
        made = []
        for person in people.values():
            answer = await person.move_answer(20)
            found = MADE.search(answer)
            assert found is not None, answer[:300]  # made, not refused
            made.append(int(found.group(1)))
            assert await person.closed() == SERVICE_RESTART
        assert sorted(made) == [version + 1, version + 2]
        await asyncio.to_thread(process.wait, 30)
        assert process.returncode == 0
        assert await database_sync_to_async(made_by)(running_game, list(people)) == 2
        log = log_of(two_processes, 0)
        assert "Traceback" not in log and "Killed" not in log, log[-3000:]
    finally:
        for person in people.values():
            await person.close()


async def test_sigterm_while_pushing_a_move_made_elsewhere_loses_no_version(
    running_game: Game, player: User, rival: User, two_processes: Site
) -> None:
    stopping, staying = two_processes.urls
    process = two_processes.daphnes[0]
    people = await pages_on(staying, player, rival)
    watcher = Person(stopping, people[player.pk].session)
    try:
        version = await database_sync_to_async(stored_version)(running_game)
        assert shown_version(await watcher.open_socket(running_game.pk)) == version
        user, card, seen = await database_sync_to_async(next_keep)(running_game, people)
        answer = await people[user].keep(running_game, card, seen)
        assert answer.status_code == 200, answer.text
        process.send_signal(signal.SIGTERM)  # as the move's announcement reaches the process
        watcher.base = staying  # where the page's reconnect lands once this process is gone
        await watcher.until_version(seen + 1)
        for moves in range(4):  # every move after it: the last ones once the process is gone
            if moves == 2:
                await asyncio.to_thread(process.wait, 30)
            user, card, seen = await database_sync_to_async(next_keep)(running_game, people)
            answer = await people[user].keep(running_game, card, seen)
            assert answer.status_code == 200, answer.text
            await watcher.until_version(seen + 1)
        assert process.returncode == 0
        assert watcher.closes == [SERVICE_RESTART]  # closed with words, never dropped (1006)
    finally:
        await watcher.close()
        for person in people.values():
            await person.close()
