"""The pooled connections a PostgreSQL restart broke are replaced by the sweep (games/outages.py:
check_pool), not checked on every hand-out, which cost every database call a round trip.

The test breaks a pool of its own (its connections named by application_name), never the
process's shared pool: ending those would break connections other tests' threads still hold."""

from __future__ import annotations

from collections.abc import Iterator
from types import SimpleNamespace

import psycopg
import pytest
from django.db import connection
from psycopg_pool import ConnectionPool

from games import outages
from tests.conftest import needs_env
from tests.flows.outage.test_database_outage import maintenance

pytestmark = [needs_env("DATABASE_URL"), pytest.mark.django_db(transaction=True)]

NAME = "bakehouse-pool-check"


@pytest.fixture
def pool(monkeypatch: pytest.MonkeyPatch) -> Iterator[ConnectionPool]:
    """A pool of three connections to the test database, as outages.check_pool finds it."""
    db = connection.settings_dict
    info = psycopg.conninfo.make_conninfo(
        host=db["HOST"] or "127.0.0.1",
        port=db["PORT"] or 5432,
        user=db["USER"],
        password=db["PASSWORD"] or "",
        dbname=db["NAME"],
        application_name=NAME,
    )
    own = ConnectionPool(info, min_size=3, max_size=3, open=True, kwargs={"autocommit": True})
    own.wait()
    monkeypatch.setattr(outages, "connection", SimpleNamespace(pool=own))
    yield own
    own.close()


def restart_ends_them() -> None:
    """As a restart does, to this test's own connections only; it returns once they have ended
    (pg_terminate_backend only signals a backend unless given a timeout: a connection checked
    before its backend died would pass for sound)."""
    with maintenance() as server:
        server.execute(
            "SELECT pg_terminate_backend(pid, 10000) FROM pg_stat_activity"
            " WHERE datname = %s AND application_name = %s",
            [connection.settings_dict["NAME"], NAME],
        )


def works(pool: ConnectionPool) -> bool:
    """Whether a query on the connection the pool hands out next goes through."""
    try:
        with pool.connection() as conn:
            conn.execute("SELECT 1")
        return True
    except psycopg.OperationalError:
        return False


def test_the_sweep_replaces_the_connections_a_restart_broke(pool: ConnectionPool) -> None:
    assert works(pool)
    restart_ends_them()
    assert not works(pool)  # the hazard: a broken connection handed out fails its call
    # The pool replaces that one in the background; once it is full again, the next restart
    # breaks only connections that sit in it (not a replacement on its way in, which
    # check_pool could not have looked at).
    pool.wait()
    restart_ends_them()
    outages.check_pool()
    assert all(works(pool) for _ in range(4))
