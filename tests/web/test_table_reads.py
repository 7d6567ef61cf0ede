"""A process reads each table once per version for all its sockets (games/boards/shared.py)."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.db import connection

from accounts.models import User
from games.boards import shared
from games.models import Game
from tests.web.test_consumer import keep_first

pytestmark = pytest.mark.django_db(transaction=True)

SOCKETS = 4


class CountedLock:
    """A table's read lock that counts the threads that asked for it."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.asked = 0
        self.counted = threading.Condition()

    def __enter__(self) -> None:
        with self.counted:
            self.asked += 1
            self.counted.notify_all()
        self.lock.acquire()

    def __exit__(self, *exc: object) -> None:
        self.lock.release()

    def wait_for(self, threads: int) -> bool:
        with self.counted:
            return self.counted.wait_for(lambda: self.asked >= threads, timeout=10)


def test_sockets_pushed_at_once_for_a_new_version_read_the_table_once(
    running_game: Game, rival: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    shared.table_at(running_game.pk)
    keep_first(running_game, rival)
    running_game.refresh_from_db()
    lock = CountedLock()
    monkeypatch.setattr(shared, "reading", lambda game_id: lock)
    reads: list[int] = []
    real_read = shared.read

    def read(game: Game, known: Any = None) -> shared.TableAt:
        # Every socket's thread asks for this table before the first read ends.
        assert lock.wait_for(SOCKETS)
        reads.append(game.version)
        return real_read(game, known)

    monkeypatch.setattr(shared, "read", read)
    tables: list[shared.TableAt] = []

    def push() -> None:
        try:
            tables.append(shared.table_at(running_game.pk, running_game.version))
        finally:
            connection.close()

    threads = [threading.Thread(target=push) for _ in range(SOCKETS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert reads == [running_game.version]
    assert len(tables) == SOCKETS
    assert all(table is tables[0] for table in tables)


def test_a_tables_presence_is_kept_across_versions_for_a_while(
    running_game: Game, player: User, rival: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = [1000.0]
    monkeypatch.setattr(shared.time, "time", lambda: clock[0])
    monkeypatch.setattr(shared.presence.time, "time", lambda: clock[0])
    first = shared.table_at(running_game.pk)
    keep_first(running_game, rival)
    clock[0] += shared.PRESENCE_KEPT_SECONDS - 1
    kept = shared.table_at(running_game.pk, first.game.version + 1)
    assert kept.game.version > first.game.version
    assert kept.presence is first.presence
    keep_first(running_game, player)
    clock[0] += 2
    later = shared.table_at(running_game.pk, kept.game.version + 1)
    assert later.game.version > kept.game.version
    assert later.presence.read_at == clock[0]


def test_a_presence_change_reads_presence_again(running_game: Game) -> None:
    first = shared.table_at(running_game.pk)
    changed = shared.table_at(running_game.pk, first.game.version, first.presence.read_at + 1)
    assert changed.presence is not first.presence
    assert shared.table_at(running_game.pk, first.game.version).presence is changed.presence
