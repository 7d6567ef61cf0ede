"""deploy/nginx.conf in front of two Daphne processes: each table on one process.

The file as shipped, its addresses changed to the test's ports and its access log kept beside
it, run by the machine's nginx (bench/web/nginx.py); it skips where nginx is not installed
(.ci/run installs it), as the other multi-process tests skip without PostgreSQL and Redis.
"""

from __future__ import annotations

import asyncio
import shutil
import signal
import tempfile
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from channels.db import database_sync_to_async

from accounts.models import User
from bench.web import nginx
from bench.web.site import Site
from games import services
from games.live.protocol import SERVICE_RESTART
from games.models import Game
from tests.conftest import needs_env
from tests.flows.processes.test_daphne_processes import shared_redis_site, stored_version
from tests.live.test_consumer import batch_ids
from tests.support.daphnes import Person
from tests.support.sockets import session_of, shown_version

PROCESS = "X-Bakehouse-Process"  # the header deploy/nginx.conf adds: which process answered

pytestmark = [
    needs_env("DATABASE_URL"),
    needs_env("REDIS_URL"),
    pytest.mark.skipif(nginx.NGINX is None, reason="nginx is not installed"),
    pytest.mark.django_db(transaction=True),
    pytest.mark.xdist_group("daphne-processes"),
]


def address(url: str) -> str:
    """host:port of a process's URL."""
    return url.removeprefix("http://").rstrip("/")


@pytest.fixture
def proxied(transactional_db: None) -> Iterator[tuple[str, Site]]:
    """Two Daphne processes behind nginx as deploy/nginx.conf routes them: (nginx's URL, site)."""
    for site in shared_redis_site():
        folder = Path(tempfile.mkdtemp(prefix="nginx-"))
        try:
            with nginx.in_front(site.ports, folder) as url:
                yield url, site
        except SystemExit:
            pytest.fail("nginx did not answer: " + (folder / "logs" / "error.log").read_text())
        finally:
            shutil.rmtree(folder, ignore_errors=True)


def last_tried(header: str) -> str:
    """The process that answered: nginx lists every one it tried, the one that answered last."""
    return header.split(", ")[-1]


def served_by(answer: httpx.Response) -> str:
    return last_tried(answer.headers[PROCESS])


async def test_a_tables_pages_posts_and_sockets_reach_one_process_and_tables_spread(
    running_game: Game, player: User, rival: User, proxied: tuple[str, Site]
) -> None:
    url, site = proxied
    behind = {address(u) for u in site.urls}
    watcher = Person(url, await database_sync_to_async(session_of)(player))
    mover = Person(url, await database_sync_to_async(session_of)(rival))
    try:
        version = await database_sync_to_async(stored_version)(running_game)
        board = await watcher.open_socket(running_game.pk)
        assert watcher.socket is not None and watcher.socket.response is not None
        table_process = watcher.socket.response.headers[PROCESS]
        assert table_process in behind
        assert shown_version(board) == version
        page = await mover.http.get(f"/games/{running_game.pk}/")
        assert page.status_code == 200
        assert served_by(page) == table_process
        card = (await database_sync_to_async(batch_ids)(running_game, rival))[0]
        answer = await mover.keep(running_game, card, version)
        assert answer.status_code == 200, answer.text
        assert served_by(answer) == table_process
        pushed = await watcher.until_version(version + 1)
        assert f'data-base="{version}"' in pushed
        assert card not in pushed  # the rival's pick stays hidden
        # Every table sticks to one process (its API operations and stream too), and the tables
        # are shared between both.
        tables: dict[int, set[str]] = {}
        for game_id in range(1, 41):
            api = (f"/api/games/{game_id}", f"/api/games/{game_id}/stream")  # 401: no token
            for path in (f"/games/{game_id}/", f"/games/{game_id}/board/", *api):
                tables.setdefault(game_id, set()).add(served_by(await mover.http.get(path)))
        assert all(len(processes) == 1 for processes in tables.values()), tables
        assert set().union(*tables.values()) == behind
    finally:
        await watcher.close()
        await mover.close()


def night_between(host: User, guest: User) -> Game:
    """A new running two-baker night."""
    game = services.create_game(host, "midnight-bakery", 2)
    services.join(game, guest)
    services.start(game, host)
    game.refresh_from_db()
    return game


async def test_a_table_on_each_process_hears_its_moves(
    player: User, rival: User, proxied: tuple[str, Site]
) -> None:
    """Tables new nights land on, one on each process: a move at each reaches its socket."""
    url, site = proxied
    watcher = Person(url, await database_sync_to_async(session_of)(player))
    mover = Person(url, await database_sync_to_async(session_of)(rival))
    on: dict[str, Game] = {}
    try:
        for _ in range(30):
            game = await database_sync_to_async(night_between)(player, rival)
            on.setdefault(served_by(await mover.http.get(f"/games/{game.pk}/")), game)
            if len(on) == len(site.urls):
                break
        assert set(on) == {address(u) for u in site.urls}
        for game in on.values():
            version = await database_sync_to_async(stored_version)(game)
            await watcher.open_socket(game.pk)
            card = (await database_sync_to_async(batch_ids)(game, rival))[0]
            answer = await mover.keep(game, card, version)
            assert answer.status_code == 200, answer.text
            assert shown_version(await watcher.until_version(version + 1)) == version + 1
            assert watcher.socket is not None
            await watcher.socket.close()
    finally:
        await watcher.close()
        await mover.close()


async def test_a_table_whose_process_stopped_is_served_by_the_other(
    running_game: Game, player: User, rival: User, proxied: tuple[str, Site]
) -> None:
    """One process drains and exits (as a deploy's, or a crashed one): its table's socket is
    closed with 3012, and everything of the table, sent to the same address, is served by the
    other process from then on: the page, a posted move, the socket and its pushes."""
    url, site = proxied
    watcher = Person(url, await database_sync_to_async(session_of)(player))
    mover = Person(url, await database_sync_to_async(session_of)(rival))
    try:
        version = await database_sync_to_async(stored_version)(running_game)
        await watcher.open_socket(running_game.pk)
        assert watcher.socket is not None and watcher.socket.response is not None
        stopped = watcher.socket.response.headers[PROCESS]
        other = next(address(u) for u in site.urls if address(u) != stopped)
        process = site.daphnes[[address(u) for u in site.urls].index(stopped)]
        process.send_signal(signal.SIGTERM)
        assert await watcher.closed() == SERVICE_RESTART
        await asyncio.to_thread(process.wait, 30)
        board = await watcher.open_socket(running_game.pk)
        assert watcher.socket.response is not None
        assert last_tried(watcher.socket.response.headers[PROCESS]) == other
        assert shown_version(board) == version
        page = await mover.http.get(f"/games/{running_game.pk}/")
        assert page.status_code == 200 and served_by(page) == other
        card = (await database_sync_to_async(batch_ids)(running_game, rival))[0]
        answer = await mover.keep(running_game, card, version)
        assert answer.status_code == 200, answer.text
        assert served_by(answer) == other
        await watcher.until_version(version + 1)
        assert watcher.closes == [SERVICE_RESTART]
    finally:
        await watcher.close()
        await mover.close()
