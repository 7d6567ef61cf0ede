"""The site benchmark's stage: Django on a throwaway database, people, tables and sockets."""

from __future__ import annotations

import asyncio
import os
import random
import shutil
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cache
from typing import Any, TypeVar

from bench import _prepared as prepared

T = TypeVar("T")
SOCKET_ORIGIN = (b"origin", b"http://localhost")


@contextmanager
def django_on_a_throwaway_database() -> Iterator[str]:
    """Set Django up on a fresh migrated database (temp SQLite, or BENCH_DATABASE_URL's test copy).

    Yields a label of the database. The repository's db.sqlite3 is never opened.
    """
    from django.apps import apps

    if apps.ready:
        raise RuntimeError("Django is already set up in this process; run the site bench alone.")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bakery_site.settings")
    # Imported as in development (a key, static files from the finders); DEBUG goes off below.
    os.environ.setdefault("DEBUG", "1")
    from django.conf import settings

    url = os.environ.get("BENCH_DATABASE_URL", "")
    max_age = int(os.environ.get("CONN_MAX_AGE", "0"))  # as in settings
    folder = tempfile.mkdtemp(prefix="bakehouse-bench-")
    if url:
        import dj_database_url

        settings.DATABASES["default"] = dj_database_url.parse(url, conn_max_age=max_age)
        # Its own test database, so a test run on the same server is never dropped.
        settings.DATABASES["default"]["TEST"] = {"NAME": f"bench_site_{os.getpid()}"}
        if os.environ.get("DB_POOL", "1") != "0":
            # As the settings do on PostgreSQL: a psycopg pool instead of a connection per read.
            settings.DATABASES["default"]["CONN_MAX_AGE"] = 0
            settings.DATABASES["default"]["OPTIONS"] = {"pool": {"min_size": 2, "max_size": 20}}
    else:
        settings.DATABASES["default"] = {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": os.path.join(folder, "bench.sqlite3"),
            "CONN_MAX_AGE": max_age,
            "OPTIONS": {"transaction_mode": "IMMEDIATE"},  # as in settings: bots' threads write
        }
    # Production-like: no query log kept by DEBUG, the one-process in-memory channel layer.
    settings.DEBUG = False
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    # Bots answer right after each services.play in its thread, each move its own transaction;
    # bench.bots measures the real path (games/live/runner.py) instead.
    settings.BOT_MOVES = "inline"
    import django

    django.setup()
    from asgiref.sync import SyncToAsync
    from django.core.management import call_command
    from django.db import connections
    from django.db.backends.signals import connection_created

    connection_created.connect(_on_connection, dispatch_uid="bench-site")
    from django.test.utils import setup_databases, teardown_databases

    old: Any = None
    try:
        if url:
            old = setup_databases(verbosity=0, interactive=False)
            label = f"{settings.DATABASES['default']['ENGINE'].rsplit('.', 1)[-1]} (test copy)"
        else:
            # A test session's migrated copy (bench/_prepared.py), or a migrate of its own.
            if not prepared.copy_migrated(settings.DATABASES["default"]["NAME"]):
                call_command("migrate", verbosity=0, interactive=False)
            label = "sqlite3 (temp file)"
        yield label
    finally:
        # The consumers' thread keeps its connection when CONN_MAX_AGE > 0.
        SyncToAsync.single_thread_executor.submit(connections.close_all).result()
        connections.close_all()
        if old is not None:
            teardown_databases(old, verbosity=0)
        shutil.rmtree(folder, ignore_errors=True)


def person(name: str) -> Any:
    """A user who logs in by session only (no password hashing)."""
    from accounts.models import User

    user = User(username=name)
    user.set_unusable_password()
    user.save()
    return user


def session_cookie(user: Any) -> bytes:
    """A Cookie header value with a logged-in session for the user."""
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    store = SessionStore()
    store[SESSION_KEY] = str(user.pk)
    store[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    store[HASH_SESSION_KEY] = user.get_session_auth_hash()
    store.create()
    return f"sessionid={store.session_key}".encode()


@dataclass
class Table:
    """A started game, the people seated at it and the cookies of everyone who watches it."""

    game_id: int
    kind: str
    humans: dict[int, Any]
    cookies: list[bytes | None] = field(default_factory=list)


_names = iter(range(1, 10**9))


def started_table(kind: str, seats: int, humans: int, seed: int, bot: str = "greedy") -> Table:
    """A running table of `seats` seats: `humans` people (the first hosts), the rest bots."""
    from games import services
    from games.models import Game

    people = [person(f"baker{next(_names)}") for _ in range(humans)]
    game = services.create_game(people[0], kind, seats)
    Game.objects.filter(pk=game.pk).update(seed=seed)
    for other in people[1:]:
        services.join(game.pk, other)
    for _ in range(seats - humans):
        services.add_bot(game.pk, people[0], bot)
    services.start(game.pk, people[0])
    seated = Game.objects.get(pk=game.pk).seats.select_related("user")
    return Table(
        game.pk, kind, {s.position: s.user for s in seated if not s.bot and s.position is not None}
    )


def human_move(table: Table, rng: random.Random) -> tuple[Any, dict, int, int] | None:
    """A random legal move of a person whose turn it is: (user, action, version, moves so far)."""
    from games.models import Game

    game = Game.objects.get(pk=table.game_id)
    if game.status != Game.Status.RUNNING:
        return None
    engine = game.spec.engine
    state = engine.load(game.snapshot)
    for position in engine.active_seats(state):
        if position in table.humans:
            action = rng.choice(engine.legal_actions(state, position))
            return table.humans[position], action, game.version, game.moves
    return None


def played(table: Table, rng: random.Random, moves: int) -> Iterator[int]:
    """Play up to `moves` random legal moves of the table's people (human_move), each stored by
    services.play; after each, the version it was played on."""
    from games import services

    for _ in range(moves):
        move = human_move(table, rng)
        if move is None:
            return
        user, action, version, _ = move
        services.play(table.game_id, user, action, version)
        yield version


@cache
def socket_class() -> Any:
    """channels' WebsocketCommunicator without its no-op patch of close_old_connections.

    The test version keeps database connections open while it waits; Daphne does not, so each
    consumer call here opens and closes its connection as in production (CONN_MAX_AGE=0).
    """
    from asgiref.testing import ApplicationCommunicator
    from channels.testing import WebsocketCommunicator

    class Socket(WebsocketCommunicator):
        async def send_input(self, message: Any) -> None:
            await ApplicationCommunicator.send_input(self, message)

        async def receive_output(self, timeout: float = 1) -> Any:
            return await ApplicationCommunicator.receive_output(self, timeout)

    return Socket


def communicator(game_id: int, cookie: bytes | None) -> Any:
    """A socket on the table's URL through the whole ASGI application (origin, session, auth)."""
    from bakery_site.asgi import application

    headers = [SOCKET_ORIGIN] + ([(b"cookie", cookie)] if cookie else [])
    return socket_class()(application, f"/ws/games/{game_id}/", headers=headers)


class QueryCounter:
    """An execute wrapper that counts the queries run through the connections it is put on."""

    def __init__(self) -> None:
        self.count = 0

    def __call__(
        self, execute: Callable[..., Any], sql: str, params: Any, many: bool, context: Any
    ) -> Any:
        self.count += 1
        return execute(sql, params, many, context)


HTTP_THREAD = "bench-http"


def in_http_thread() -> bool:
    """Whether this code runs where the bench makes its moves (the HTTP side)."""
    return threading.current_thread().name.startswith(HTTP_THREAD)


def http_thread() -> ThreadPoolExecutor:
    """One worker thread for moves, as a Daphne worker thread runs a view."""
    return ThreadPoolExecutor(1, thread_name_prefix=HTTP_THREAD)


def run_as_view(fn: Callable[..., T], *args: Any) -> T:
    """Run a sync function in an HTTP thread under a running event loop, as Daphne runs a view.

    So services' on_commit announcement reaches the channel layer on the loop, as in production.
    """
    from asgiref.sync import sync_to_async
    from django.db import connections

    def call() -> T:
        try:
            return fn(*args)
        finally:
            connections.close_all()

    async def main() -> T:
        with http_thread() as pool:
            return await sync_to_async(call, thread_sensitive=False, executor=pool)()

    return asyncio.run(main())


@dataclass
class ConsumerWork:
    """What the consumers did off the HTTP thread: queries, connections opened, renders."""

    queries: int = 0
    connections: int = 0
    renders: int = 0
    render_seconds: float = 0.0
    rendered_chars: int = 0
    busy_seconds: float = 0.0


_watching: list[ConsumerWork] = []


def _count_query(
    execute: Callable[..., Any], sql: str, params: Any, many: bool, context: Any
) -> Any:
    if _watching and not in_http_thread():
        _watching[-1].queries += 1
    return execute(sql, params, many, context)


def _on_connection(sender: Any, connection: Any, **kwargs: Any) -> None:
    if _count_query not in connection.execute_wrappers:
        connection.execute_wrappers.append(_count_query)
    if _watching and not in_http_thread():
        _watching[-1].connections += 1


def rendered_chars(out: Any) -> int:
    """Characters of a render: a string, a dict of region strings, or (whole board, regions)."""
    if isinstance(out, str):
        return len(out)
    if isinstance(out, dict):
        return sum(len(html) for html in out.values())
    if isinstance(out, tuple) and out:
        return rendered_chars(out[0])
    return 0


def _timed(render: Callable[..., T], work: ConsumerWork) -> Callable[..., T]:
    def timed(*args: Any, **kwargs: Any) -> T:
        start = time.perf_counter()
        out = render(*args, **kwargs)
        work.render_seconds += time.perf_counter() - start
        work.renders += 1
        work.rendered_chars += rendered_chars(out)
        return out

    return timed


@contextmanager
def consumer_work() -> Iterator[ConsumerWork]:
    """Count the consumers' queries and new connections, and time their renders, meanwhile.

    Every render_* function the sockets' pushes (games/live/pushes.py) imported is timed while
    this lasts, and so is all sync work the event loop hands to threads other than the move
    thread (the consumers').
    """
    from asgiref.sync import SyncToAsync

    from games.live import pushes

    work = ConsumerWork()
    originals = {
        name: getattr(pushes, name)
        for name in dir(pushes)
        if name.startswith("render_") and callable(getattr(pushes, name))
    }
    for name, render in originals.items():
        setattr(pushes, name, _timed(render, work))
    handler = SyncToAsync.thread_handler

    def busy(self: SyncToAsync, *args: Any, **kwargs: Any) -> Any:
        if in_http_thread():
            return handler(self, *args, **kwargs)
        start = time.perf_counter()
        try:
            return handler(self, *args, **kwargs)
        finally:
            work.busy_seconds += time.perf_counter() - start

    SyncToAsync.thread_handler = busy  # type: ignore[method-assign]
    _watching.append(work)
    try:
        yield work
    finally:
        _watching.remove(work)
        SyncToAsync.thread_handler = handler  # type: ignore[method-assign]
        for name, render in originals.items():
            setattr(pushes, name, render)


def bare_socket() -> Any:
    """A socket to a consumer that accepts and says hello: the floor under the site's own cost."""
    from channels.generic.websocket import AsyncWebsocketConsumer

    return socket_class()(_bare_app(AsyncWebsocketConsumer), "/ws/bare/")


@cache
def _bare_app(base: Any) -> Any:
    class Hello(base):
        async def connect(self) -> None:
            await self.accept()
            await self.send(text_data="hello")

    return Hello.as_asgi()
