"""Real Daphne processes on the test's own database and a Redis, and people talking to them
the way a browser does: the session cookie, the page's CSRF token and Origin, a websocket."""

from __future__ import annotations

import asyncio
import json
import shutil
import socket as net
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import quote

import httpx
from django.conf import settings
from django.db import connection
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, WebSocketException
from websockets.typing import Origin

from bench.web.site import Site, base_env, free_port, start, stop
from games.models import Game
from tests.support.sockets import answers_a_move, shown_version

HTMX = {"HX-Request": "true"}


def shared_database_url() -> str:
    """The URL of the database this test runs on (PostgreSQL), for other processes to share."""
    db = connection.settings_dict
    auth = quote(db["USER"] or "", safe="")
    if db.get("PASSWORD"):
        auth += ":" + quote(db["PASSWORD"], safe="")
    return f"postgres://{auth}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


@contextmanager
def daphnes(
    count: int, redis_url: str, prefix: str, database_url: str = "", **extra: str
) -> Iterator[Site]:
    """`count` Daphne processes with DEBUG off on the test's database (or `database_url`) and
    this Redis (and any `extra` environment, e.g. PACE_SCALE)."""
    env = base_env()
    env.update(
        SECRET_KEY=settings.SECRET_KEY,  # the sessions the test made are signed with it
        DJANGO_SETTINGS_MODULE="tests.support.daphne_settings",
        DATABASE_URL=database_url or shared_database_url(),
        REDIS_URL=redis_url,
        REDIS_PREFIX=prefix,
        **extra,
    )
    site = Site("test", count, env, Path(tempfile.mkdtemp(prefix="daphnes-")))
    try:
        start(site)
        yield site
    except BaseException:
        for log in sorted(site.folder.glob("daphne-*.log")):
            print(log.name, log.read_text(errors="replace")[-4000:])
        raise
    finally:
        stop(site)
        shutil.rmtree(site.folder, ignore_errors=True)


class RedisServer:
    """A throwaway redis-server on a free port, to kill and start again mid-test."""

    def __init__(self) -> None:
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        command = ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1"]
        command += ["--save", "", "--appendonly", "no"]
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while not self.answers():
            assert time.monotonic() < deadline, "redis-server did not start"
            time.sleep(0.05)

    def answers(self) -> bool:
        try:
            with net.create_connection(("127.0.0.1", self.port), timeout=1) as conn:
                conn.sendall(b"PING\r\n")
                return conn.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    def stop(self, *, kill: bool = False) -> None:
        if self.process is not None:
            if kill:
                self.process.kill()
            else:
                self.process.terminate()
            self.process.wait(timeout=10)
            self.process = None


def redis_server_or_skip() -> RedisServer:
    """A started throwaway redis-server; the test is skipped without the binary."""
    import pytest

    if shutil.which("redis-server") is None:
        pytest.skip("redis-server is not installed")
    server = RedisServer()
    server.start()
    return server


class Person:
    """One person's browser tab on one Daphne process: cookies, posts and the table's socket."""

    open_timeout = 20.0  # seconds the client waits for its handshake

    def __init__(self, base: str, session: str) -> None:
        self.base = base
        self.session = session
        self.http = httpx.AsyncClient(base_url=base, timeout=20)
        self.http.cookies.set("sessionid", session)
        self.socket: ClientConnection | None = None
        self.game_id = 0
        self.closes: list[int | None] = []  # close codes seen (None: the connection dropped)

    async def csrf(self, game: Game) -> str:
        """The CSRF token the table page hands its forms (the cookie's value works alike)."""
        if "csrftoken" not in self.http.cookies:
            page = await self.http.get(f"/games/{game.pk}/")
            assert page.status_code == 200, page.status_code
        return str(self.http.cookies["csrftoken"])

    async def post(self, game: Game, data: dict[str, str]) -> httpx.Response:
        """Post a move as the page does (HTMX, the token in a header)."""
        headers = {**HTMX, "X-CSRFToken": await self.csrf(game)}
        return await self.http.post(f"/games/{game.pk}/play/", data=data, headers=headers)

    async def keep(self, game: Game, card: str, version: int) -> httpx.Response:
        """Keep this pastry, chosen on the board at `version`."""
        action = json.dumps({"type": "keep", "card": card})
        return await self.post(game, {"action": action, "version": str(version)})

    async def open_socket(self, game_id: int) -> str:
        """Open the socket with the session cookie and the page's Origin: the first board."""
        self.game_id = game_id
        url = self.base.replace("http://", "ws://") + f"/ws/games/{game_id}/"
        self.socket = await connect(
            url,
            additional_headers={"Cookie": f"sessionid={self.session}"},
            origin=Origin(self.base),
            open_timeout=self.open_timeout,
        )
        return str(await self.socket.recv(decode=True))

    async def move_answer(self, timeout: float = 30) -> str:
        """The socket's answer to the move this page sent on it (pushes that come first are
        passed over). No answer at all fails the test."""
        assert self.socket is not None
        async with asyncio.timeout(timeout):
            while True:
                message = str(await self.socket.recv(decode=True))
                if answers_a_move(message):
                    return message

    async def until_version(self, version: int, timeout: float = 20) -> str:
        """Read pushes until one brings this version (or a later one); that push.

        A close the server did not mean as final (outside 4000-4999) is followed by a new socket,
        as the page's live.js does, and its whole board counts like a push. There is no poll: a
        push that never comes fails the test.
        """
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            assert left > 0, f"version {version} never reached the socket"
            try:
                assert self.socket is not None
                html = str(await asyncio.wait_for(self.socket.recv(decode=True), left))
            except ConnectionClosed as closed:
                code = closed.rcvd.code if closed.rcvd is not None else None
                self.closes.append(code)
                assert code is None or not 4000 <= code <= 4999, f"a final close: {code}"
                html = await self.reopen(game_id=self.game_id, deadline=deadline)
            shown = shown_version(html)
            if shown is not None and shown >= version:
                return html

    async def closed(self, timeout: float = 20) -> int | None:
        """Wait for the server to close the socket (pushes on their way are read); its code."""
        assert self.socket is not None
        try:
            async with asyncio.timeout(timeout):
                while True:
                    await self.socket.recv(decode=True)
        except ConnectionClosed as closed:
            code = closed.rcvd.code if closed.rcvd is not None else None
            self.closes.append(code)
            return code

    async def reopen(self, game_id: int, deadline: float) -> str:
        """Open the socket again, retrying while the server refuses it (its layer is down)."""
        wait = 0.25
        while True:
            try:
                return await self.open_socket(game_id)
            except (OSError, WebSocketException, TimeoutError):
                assert time.monotonic() < deadline, "the socket could not be opened again"
                await asyncio.sleep(wait)
                wait = min(wait * 2, 2.0)

    async def close(self) -> None:
        if self.socket is not None:
            await self.socket.close()
        await self.http.aclose()
