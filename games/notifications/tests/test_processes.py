"""Issue 32, point 3: exactly one notification per turn across two Daphne processes.

Two real Daphne processes share the test's PostgreSQL database and Redis, each with its worker's
sweep every 0.1 s, and each sweep tells the person whose move it is at every turn-based table
whose version it has not looked at (games/notifications/services.py): both processes hear of every
turn, as they would if each had been sent it. The database must hold one row per turn and
person, and neither process may lose the race by an error.
"""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Callable
from datetime import datetime

import pytest

from accounts.models import User
from games.models import Game, TableSocket
from games.notifications.models import Notification
from games.notifications.tests.tables import move, turn_based, whose_move
from tests.conftest import needs_env, own_prefix
from tests.support.daphnes import Person, daphnes
from tests.support.sockets import session_of

pytestmark = [
    needs_env("DATABASE_URL"),
    needs_env("REDIS_URL"),
    pytest.mark.django_db(transaction=True),
    pytest.mark.xdist_group("daphne-processes"),
]

TABLES = 8
SWEEP = 0.1
OVERALL = 30.0  # seconds the test waits for any one state, at most


def wait_for(what: str, done: Callable[[], bool]) -> None:
    """Wait until `done()` holds (checked every 50 ms), failing after OVERALL seconds."""
    deadline = time.monotonic() + OVERALL
    while not done():
        assert time.monotonic() < deadline, what
        time.sleep(0.05)


def renewed() -> dict[str, datetime]:
    """When each process last renewed its open sockets: the start of its latest sweep."""
    rows = TableSocket.objects.filter(open=True).values_list("process", "seen_at")
    latest: dict[str, datetime] = {}
    for process, seen_at in rows:
        latest[process] = max(seen_at, latest.get(process, seen_at))
    return latest


def renewed_after(mark: dict[str, datetime]) -> dict[str, datetime]:
    """Wait until each process renewed its sockets after `mark`; the new renewals."""

    def later() -> bool:
        now = renewed()
        return all(now[process] > at for process, at in mark.items())

    wait_for("a process stopped sweeping", later)
    return renewed()


def both_swept_since_now() -> None:
    """Wait until each process has made a whole sweep that started after this call: its first
    renewal after now starts one, its second comes after that sweep ended."""
    mark = renewed()
    assert len(mark) == 2, mark
    renewed_after(renewed_after(mark))


def turn_rows(game: Game) -> list[tuple[int, str]]:
    rows = Notification.objects.filter(game=game, kind=Notification.Kind.TURN)
    return sorted(rows.values_list("recipient_id", "key"))


def test_two_daphne_processes_tell_each_turn_once(
    player: User, rival: User, outsider: User
) -> None:
    prefix = own_prefix("notifications")
    extra = {"BOT_SWEEP_SECONDS": str(SWEEP), "EMAIL_URL": "dummy://"}
    with daphnes(2, os.environ["REDIS_URL"], prefix, **extra) as site, asyncio.Runner() as loop:
        games = [turn_based([player, rival]) for _ in range(TABLES)]
        # A socket on each process: its row's renewals show that process's sweeps.
        session = session_of(outsider)
        watchers = [Person(url, session) for url in site.urls]

        async def open_both() -> None:
            for watcher in watchers:
                await watcher.open_socket(games[0].pk)

        loop.run(open_both())
        wait_for("a socket's row", lambda: len(renewed()) == 2)
        first = {game.pk: whose_move(game) for game in games}
        wait_for(
            "the first turns were never told",
            lambda: all(turn_rows(game) for game in games),
        )
        movers = {game.pk: move(game) for game in games}
        both_swept_since_now()
        assert all(process.poll() is None for process in site.daphnes)
        for log in sorted(site.folder.glob("daphne-*.log")):
            assert "Traceback" not in log.read_text(errors="replace"), log.name

        async def close_both() -> None:
            for watcher in watchers:
                await watcher.close()

        loop.run(close_both())
    for game in games:
        mover = movers[game.pk]
        assert mover == first[game.pk]
        other = rival if mover == player else player
        # Each person's first turn, told once though both processes heard of each.
        assert turn_rows(game) == sorted(
            [(mover.pk, f"turn:{game.pk}:0"), (other.pk, f"turn:{game.pk}:0")]
        )
