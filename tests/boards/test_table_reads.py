"""A process reads each table once per version for all its sockets (games/boards/shared.py)."""

from __future__ import annotations

import threading
import time
from dataclasses import replace
from typing import Any

import pytest
from django.db import connection

from accounts.models import User
from games import services
from games.boards import render_whole, renders, shared
from games.models import Game
from games.services import presence
from tests.live.test_consumer import keep_first
from tests.support.finished_games import play_to_first_results
from tests.support.sockets import open_board, socket

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
    monkeypatch.setattr(shared, "remember", lambda game, seats, state: None)
    keep_first(running_game, rival)  # as if stored by another process: nothing kept here
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
    monkeypatch.setattr(time, "time", lambda: clock[0])
    first = shared.table_at(running_game.pk)
    keep_first(running_game, rival)
    clock[0] += shared.PRESENCE_KEPT_SECONDS - 1
    kept = shared.table_at(running_game.pk, first.game.version + 1)
    assert kept.game.version > first.game.version
    assert kept.presence is first.presence
    clock[0] += 2
    keep_first(running_game, player)  # its presence too old to keep: the sockets read it
    later = shared.table_at(running_game.pk, kept.game.version + 1)
    assert later.game.version > kept.game.version
    assert later.presence.read_at == clock[0]


def test_a_presence_change_reads_presence_again(running_game: Game) -> None:
    first = shared.table_at(running_game.pk)
    changed = shared.table_at(running_game.pk, first.game.version, first.presence.read_at + 1)
    assert changed.presence is not first.presence
    assert shared.table_at(running_game.pk, first.game.version).presence is changed.presence


def seats_as_stored(table: shared.TableAt) -> list[tuple[Any, ...]]:
    """Every stored field of the table's seats, and their people."""
    return [
        (*(getattr(s, f.attname) for f in s._meta.concrete_fields), s.user.username)
        for s in table.seats
    ]


def test_a_move_stored_here_reaches_this_processes_sockets_without_a_read(
    running_game: Game, rival: User, django_assert_num_queries: Any
) -> None:
    shared.table_at(running_game.pk)  # a socket here watches the table
    keep_first(running_game, rival)
    running_game.refresh_from_db()
    with django_assert_num_queries(0):
        kept = shared.table_at(running_game.pk, running_game.version)
    fresh = shared.read(Game.objects.get(pk=running_game.pk))
    engine = running_game.spec.engine
    assert kept.game.version == fresh.game.version == running_game.version
    assert kept.game.snapshot == fresh.game.snapshot
    assert engine.dump(kept.state) == engine.dump(fresh.state)
    assert seats_as_stored(kept) == seats_as_stored(fresh)


def test_a_move_stored_where_no_socket_watches_or_presence_is_old_is_read_as_usual(
    running_game: Game, player: User, rival: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    keep_first(running_game, rival)  # nothing here watches the table: nothing kept
    assert shared.recent(running_game.pk) is None
    first = shared.table_at(running_game.pk)
    clock = [first.presence.read_at + shared.PRESENCE_KEPT_SECONDS + 1]
    monkeypatch.setattr(time, "time", lambda: clock[0])
    keep_first(running_game, player)  # the presence this process knows is too old to keep
    assert shared.recent(running_game.pk) is first


def test_closing_results_makes_a_version_the_sockets_read(running_game: Game, player: User) -> None:
    """Every change to a table makes a version, closed results too: the sockets' read of it
    shows them closed, and the table kept before is left as it was."""
    play_to_first_results(running_game)
    before = shared.table_at(running_game.pk)  # a socket here watches the table
    game = services.close_results(running_game.pk, player, 1)
    assert game is not None and game.version == before.game.version + 1
    kept = shared.table_at(running_game.pk, game.version)
    assert [s.results_seen for s in kept.seats if s.user_id == player.pk] == [1]
    assert seats_as_stored(kept) == seats_as_stored(
        shared.read(Game.objects.get(pk=running_game.pk))
    )
    assert [s.results_seen for s in before.seats if s.user_id == player.pk] == [0]


def test_a_read_begun_before_results_closed_never_replaces_the_newer_version(
    running_game: Game, player: User
) -> None:
    """A socket's read of the table that began before a close committed and ends after it,
    with presence read later, does not undo the closed results: it is an older version."""
    play_to_first_results(running_game)
    shared.table_at(running_game.pk)  # a socket here watches the table
    begun = shared.read(Game.objects.get(pk=running_game.pk))
    game = services.close_results(running_game.pk, player, 1)
    assert game is not None
    newer = shared.table_at(running_game.pk, game.version)
    ended = replace(begun, presence=presence.read(running_game.pk))
    assert shared.keep(ended) is newer
    assert [s.results_seen for s in newer.seats if s.user_id == player.pk] == [1]


def test_a_waiting_rooms_new_version_is_read_with_its_host(
    open_table: Game, player: User, rival: User, django_assert_num_queries: Any
) -> None:
    """The waiting room shows the host's name: a socket's read of a new version brings the host
    with the game row, and its push reads nothing more."""
    shared.table_at(open_table.pk)  # a socket here watches the table
    version = services.join(open_table.pk, rival).game.version
    with django_assert_num_queries(2):  # the game row with its host, and the seats
        kept = shared.table_at(open_table.pk, version)
        html, _ = render_whole(kept.game, rival, kept)
    assert kept.game.version == version
    assert f"hosted by {player.username}" in html


async def test_a_table_is_kept_while_a_socket_here_is_at_it_and_forgotten_after_the_last(
    running_game: Game, player: User, rival: User
) -> None:
    """What this process keeps of a table (its state, its renders) is bounded by the sockets it
    serves there: the last one to leave takes it with it."""
    mine, theirs = await socket(running_game, player), await socket(running_game, rival)
    for ws in (mine, theirs):
        await open_board(ws)
    assert shared.recent(running_game.pk) is not None and running_game.pk in renders._renders
    await mine.disconnect()
    assert shared.recent(running_game.pk) is not None  # the rival's socket still shows it
    await theirs.disconnect()
    assert shared.recent(running_game.pk) is None and running_game.pk not in renders._renders
