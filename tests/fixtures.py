"""Shared fixtures: three personas (seated player, rival, outsider) and tables to sit at.

A plugin of the root conftest.py, so every test folder sees them: tests/ and the features' own
tests/ folders (games/<feature>/tests/).
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.test import Client

from accounts.models import User
from bakery_site.settings import default_layer, redis_layer
from games import services
from games.models import Game


@pytest.fixture(autouse=True)
def _fast_passwords(settings: object) -> None:
    """Hash test passwords cheaply; the real hasher is slow on purpose."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # type: ignore[attr-defined]


@pytest.fixture(autouse=True)
def _bots_inline(settings: object) -> None:
    """Bots move right after each service returns, in the same thread: tests read them at once.

    tests/web/test_bot_worker.py turns this off to test the real path (games/live/runner.py).
    """
    settings.BOT_MOVES = "inline"  # type: ignore[attr-defined]


@pytest.fixture(autouse=True)
def _fresh_table_caches() -> None:
    """Each test starts with no table read or region render kept: game ids repeat between tests."""
    from django.core.cache import cache

    from games.boards.shared import forget_all

    forget_all()
    cache.clear()  # the limits on mail and tries (accounts.emails.under_limit): ids repeat too


@pytest.fixture(autouse=True)
def _presence_quiet(settings: object) -> None:
    """Sockets coming and going are not pushed, so a test's next message is the one it awaits.

    tests/web/test_presence.py turns them on to test the pushes themselves. (The inbox badge is
    always pushed: a test whose person is told something while their socket is open gets it,
    and says so, as tests/web/test_rematch.py does.)
    """
    settings.PRESENCE_PUSHES = False  # type: ignore[attr-defined]


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
