"""Shared fixtures: three personas (seated player, rival, outsider) and tables to sit at.

A plugin of the root conftest.py, so every test folder sees them: tests/ and the features' own
tests/ folders (games/<feature>/tests/).
"""

from __future__ import annotations

import contextlib
import glob
import inspect
import os
import tempfile
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.test import Client

from accounts.models import User
from bakery_site.channel_layers import default_layer, redis_layer
from games import services
from games.live import drain
from games.models import Game
from tests.support.clock import Clock, patched_clock
from tests.support.groups import group

TEST_SECRET_KEY = "tests-only-key-" + "x" * 40
"""The key the tests sign sessions with (the Daphne processes they start are given it too)."""


def pytest_configure(config: pytest.Config) -> None:
    """The tests' own settings over the site's, for the whole run: the site runs with DEBUG off,
    so it has no key to sign with unless given one and serves collectstatic's hashed files, but
    the tests need a key and serve static files as they are (the finders; no test collects them),
    and think in their own thread, briefly.
    A test changes any other setting for itself with pytest-django's `settings`."""
    from django.conf import settings

    if not os.environ.get("SECRET_KEY"):  # the environment's, if it gives one, is kept
        settings.SECRET_KEY = TEST_SECRET_KEY
    # Searches think in the test's own thread (games/thinking.py; tests/live/test_thinking.py
    # runs the worker processes themselves), a master for a few milliseconds a decision.
    settings.THINKING_PROCESSES = 0
    settings.MASTER_BOT_SECONDS = 0.005
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }


@pytest.fixture(autouse=True)
def _fast_passwords(settings: object) -> None:
    """Hash test passwords cheaply; the real hasher is slow on purpose."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # type: ignore[attr-defined]


@pytest.fixture(autouse=True)
def _english_to_begin() -> Iterator[None]:
    """Each test begins in the site's language: a request's LocaleMiddleware leaves its language
    active on the test's thread, and the services' refusals are said in the language active."""
    from django.utils import translation

    translation.deactivate()  # the settings' LANGUAGE_CODE
    yield
    translation.deactivate()


@pytest.fixture
def bots_inline(settings: object) -> None:
    """Bots move right after each service returns, in the same thread (BOT_MOVES = "inline"), so
    a test reads their moves at once. Not the default: the default is the site's own path, each
    commit leaving the bots to this process's runner (games/live/runner.py). A folder whose tests
    read the bots' answers at once says so in its conftest.py (tests/README.md lists them)."""
    settings.BOT_MOVES = "inline"  # type: ignore[attr-defined]


@pytest.fixture(autouse=True)
def _fresh_table_caches() -> None:
    """Each test starts with no table read, region render or told rematch kept: game ids repeat
    between tests."""
    from django.core.cache import cache

    from games.boards.shared import forget_all
    from games.services.rematch import forget_told_away

    forget_all()
    forget_told_away()  # which rematch away lists were told: rematch ids repeat too
    cache.clear()  # the limits on mail and tries (accounts.emails.under_limit): ids repeat too


def own_prefix(label: str) -> str:
    """A Redis prefix for this test process: its xdist worker and process id keep two workers,
    and two suites side by side on one machine, apart."""
    return f"{label}-{os.environ.get('PYTEST_XDIST_WORKER', 'main')}-{os.getpid()}"


@pytest.fixture(autouse=True)
def _own_channel_prefix(settings: object) -> None:
    """On Redis, each test process gets its own prefix, so equal game ids never cross-talk.

    The process id keeps two suites apart when they run side by side on one machine. The layer
    is the one CHANNEL_LAYER names, as in the site (pub/sub unless it says core).
    """
    redis_url = os.environ.get("REDIS_URL")
    if redis_url:
        layer = default_layer(redis_url, own_prefix("test"))
        settings.CHANNEL_LAYERS = {"default": layer}  # type: ignore[attr-defined]


@pytest.fixture
def core_layer(settings: object) -> None:
    """channels-redis's core layer on REDIS_URL, whatever CHANNEL_LAYER says (its own tests)."""
    redis_url = os.environ.get("REDIS_URL")
    if not redis_url:
        pytest.skip("REDIS_URL is not set")
    layer = redis_layer(redis_url, own_prefix("test-core"))
    settings.CHANNEL_LAYERS = {"default": layer}  # type: ignore[attr-defined]


MEMORY_DIR = "/dev/shm" if os.path.isdir("/dev/shm") else tempfile.gettempdir()


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix: None) -> None:
    """Each test process gets test databases of its own, and SQLite's is a file as in `make run`.

    The process id keeps two suites apart on one PostgreSQL server. An in-memory SQLite database
    shares one cache between threads, with table locks that a real file never has: tests of
    people pressing at the same instant (and the bots' threads) need the file, its write-ahead log
    and its busy timeout. In memory-backed /dev/shm it is as fast.
    """
    from django.conf import settings

    for db in settings.DATABASES.values():
        test = db.setdefault("TEST", {})
        if db["ENGINE"].endswith("postgresql"):
            test["NAME"] = f"{test.get('NAME') or 'test_' + db['NAME']}_{os.getpid()}"
        elif db["ENGINE"].endswith("sqlite3"):
            test["NAME"] = os.path.join(MEMORY_DIR, f"bakehouse-test-{os.getpid()}.db")


# What commits, waits on a lock or a socket, or runs another process: the behaviour PostgreSQL and
# Redis can change. A plain `db` test (one transaction, rolled back) meets them only through its
# SQL; the modules whose SQL differs between the two databases say so with the `backend` marker
# themselves (pytestmark). CI's second pass, on PostgreSQL and Redis, runs `-m backend` alone.
COMMITTING_FIXTURES = {"transactional_db", "live_server", "django_db_serialized_rollback"}


def meets_backends(item: pytest.Item) -> bool:
    """Whether the test commits to the database or runs on an event loop (sockets, the layer)."""
    if not isinstance(item, pytest.Function):
        return False
    if COMMITTING_FIXTURES & set(item.fixturenames) or inspect.iscoroutinefunction(item.obj):
        return True
    marker = item.get_closest_marker("django_db")
    return marker is not None and bool(marker.kwargs.get("transaction"))


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if meets_backends(item):
            item.add_marker(pytest.mark.backend)


def pytest_sessionfinish(session: pytest.Session) -> None:
    """Django removes this process's SQLite test database, not its write-ahead log and shared
    memory files beside it: remove those too, or every run leaves megabytes in /dev/shm."""
    for leftover in glob.glob(os.path.join(MEMORY_DIR, f"bakehouse-test-{os.getpid()}.db*")):
        with contextlib.suppress(OSError):
            os.remove(leftover)


@pytest.fixture
def make_user(db: None) -> Callable[[str], User]:
    """A factory of people with a known password."""

    def make(name: str) -> User:
        return User.objects.create_user(username=name, password="a-long-baking-secret")

    return make


@pytest.fixture
def player(make_user: Callable[[str], User]) -> User:
    """The seated player, who hosts the table."""
    return make_user("alice")


@pytest.fixture
def rival(make_user: Callable[[str], User]) -> User:
    """The other seated player."""
    return make_user("bob")


@pytest.fixture
def outsider(make_user: Callable[[str], User]) -> User:
    """Someone with an account who does not sit at the table."""
    return make_user("carol")


@pytest.fixture
def moderator(make_user: Callable[[str], User]) -> User:
    """Staff in the Moderators group (made by a migration), not a superuser."""
    user = make_user("mod")
    user.is_staff = True
    user.save()
    user.groups.add(group("Moderators"))
    return User.objects.get(pk=user.pk)  # fresh: no cached permissions


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    """The server's time, moved forward by hand (tests/support/clock.py): the clocks', the
    tournaments' and the sweeps'."""
    return patched_clock(monkeypatch)


def client_for(user: User | None) -> Client:
    """A test client logged in as the user (anonymous for None)."""
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


@pytest.fixture
def open_table(player: User) -> Game:
    """A public two-seat Midnight Bakery table with its host seated."""
    return services.create_game(player, "midnight-bakery", 2)


@pytest.fixture
def running_game(open_table: Game, rival: User) -> Game:
    """A started two-baker night between player and rival (the owl makes three)."""
    services.join(open_table, rival)
    services.start(open_table, open_table.host)
    open_table.refresh_from_db()
    return open_table


def needs_env(name: str) -> pytest.MarkDecorator:
    """Skip unless the environment variable is set (PostgreSQL, Redis)."""
    return pytest.mark.skipif(not os.environ.get(name), reason=f"{name} is not set")


@pytest.fixture(scope="session", autouse=True)
def _database_pools_closed_last(django_db_setup: None, django_db_blocker: Any) -> Iterator[None]:
    """On PostgreSQL, end this test database's other sessions and close the connection pool
    before the database is dropped: connections that threads (pushes, bots) kept made the drop
    fail ("being accessed by other users") and left the database behind on the server."""
    yield
    from django.db import connections

    for connection in connections.all():
        if connection.vendor == "postgresql":
            with django_db_blocker.unblock(), connection.cursor() as cursor:
                cursor.execute(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                    " WHERE datname = current_database() AND pid <> pg_backend_pid()"
                )
            connection.close()
        close = getattr(connection, "close_pool", None)
        if close is not None:
            close()


@pytest.fixture
def fresh_drain(monkeypatch: pytest.MonkeyPatch) -> drain.Drain:
    """This process's drain as at its start: no socket of an earlier test in its count."""
    state = drain.Drain()
    monkeypatch.setattr(drain, "STATE", state)
    return state


def connections_held() -> list[str]:
    """Every thread's open database connection in this process, as "thread: seconds past its
    close" (a connection past its close is one nothing returned to the pool). Found through the
    garbage collector: Django keeps each thread's connection in that thread's own storage."""
    import gc
    import threading
    import time

    from django.db.backends.base.base import BaseDatabaseWrapper

    names = {t.ident: t.name for t in threading.enumerate()}
    now = time.monotonic()
    return [
        f"{names.get(w._thread_ident, 'a thread gone')}: "
        f"{'-' if w.close_at is None else round(now - w.close_at, 1)} s"
        for w in gc.get_objects()
        # type(), not isinstance(): isinstance would evaluate lazy objects (a CSP nonce).
        if issubclass(type(w), BaseDatabaseWrapper) and w.connection is not None
    ]


@pytest.fixture(autouse=True)
def _connections_log(request: pytest.FixtureRequest) -> Iterator[None]:
    """With CONNECTIONS_LOG=<file>, each test's line in that file after it: the threads it
    started that outlive it, the PostgreSQL pool's connections still out, and who holds them
    (connections_held). A tool to find what keeps pool connections (.ci/run's DB_POOL_MAX),
    off unless asked: the garbage collector's walk costs a tenth of a second a test."""
    import threading

    path = os.environ.get("CONNECTIONS_LOG")
    if not path:
        yield
        return
    before = set(threading.enumerate())
    yield
    from django.db import connection

    pool = getattr(connection, "_connection_pools", {}).get(connection.alias)
    stats = pool.get_stats() if pool is not None else {}
    out = stats.get("pool_size", 0) - stats.get("pool_available", 0)
    outliving = [t.name for t in threading.enumerate() if t not in before and t.is_alive()]
    with open(path, "a") as log:
        log.write(
            f"{request.node.nodeid}\tthreads outliving it {outliving}\t"
            f"pool out {out} of {stats.get('pool_size', 0)}\theld {connections_held()}\n"
        )
