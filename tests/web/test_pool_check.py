"""The pooled connections a PostgreSQL restart broke are replaced by the sweep (games/outages.py:
check_pool), not checked on every hand-out, which cost every database call a round trip."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection

from games import outages
from tests.conftest import needs_env
from tests.web.test_database_outage import maintenance

pytestmark = [needs_env("DATABASE_URL"), pytest.mark.django_db(transaction=True)]


def the_pool() -> Any:
    """The process's psycopg pool (Django's PostgreSQL backend; None without DB_POOL)."""
    return getattr(connection, "pool", None)


def pooled() -> int:
    """How many idle connections the pool holds (ours handed back first)."""
    connection.close()
    return int(the_pool().get_stats().get("pool_available", 0))


def restart_ends_them() -> None:
    """As a restart does: every session of this database but the one saying it is ended."""
    with maintenance() as server:
        server.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = %s AND pid <> pg_backend_pid()",
            [connection.settings_dict["NAME"]],
        )


def works() -> bool:
    """Whether a query on the connection the pool hands out next goes through."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        return True
    except outages.OUTAGE:
        return False
    finally:
        connection.close()


def test_the_sweep_replaces_the_connections_a_restart_broke() -> None:
    if the_pool() is None:
        pytest.skip("DB_POOL is off")
    assert works() and pooled() >= 1
    restart_ends_them()
    assert not works()  # the hazard: a broken connection handed out fails its call
    restart_ends_them()
    outages.check_pool()
    assert all(works() for _ in range(pooled() + 1))
