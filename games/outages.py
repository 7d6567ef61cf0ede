"""The database going away and coming back, told in the log once each.

A PostgreSQL restart breaks every pooled connection at once and refuses new ones for a moment, so
every socket's push, every request and every sweep meets it. Each hands its error here instead of
logging a traceback: the first failure logs one line, the first sweep that reaches the database
again one more, with how long it was away and how many failures it kept out of the log. The
player is told in words meanwhile (games/live/consumer.py, games/web/middleware.py).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Awaitable, Callable

from django.db import InterfaceError, OperationalError, connection
from django.utils.translation import gettext_noop as N_

logger = logging.getLogger("bakehouse.database")

# What a database that went away raises (a broken or refused connection, a closed one); other
# database errors are bugs and keep their tracebacks.
OUTAGE = (OperationalError, InterfaceError)
WORDS = N_(
    "The bakery lost touch with its database for a moment, so your tap was not taken. Press again."
)
"""Marked here, said in the reader's language where it is sent (gettext)."""

_lock = threading.Lock()
_since: float | None = None
_failures = 0


def away(error: BaseException) -> None:
    """A failure that met the database away: the first of an outage is logged, in one line."""
    global _since, _failures
    with _lock:
        if _since is None:
            _since, _failures = time.monotonic(), 1
            first_line = str(error).strip().splitlines()[0] if str(error).strip() else ""
            logger.warning("The database went away: %s: %s", type(error).__name__, first_line)
        else:
            _failures += 1


def answered() -> None:
    """The database answered (a sweep's queries went through): the end of an outage is logged."""
    global _since, _failures
    if _since is None:  # the usual case, without the lock
        return
    with _lock:
        if _since is None:
            return
        lasted, failures = time.monotonic() - _since, _failures
        _since, _failures = None, 0
    logger.warning("The database is back after %.1f s (%d failures meanwhile).", lasted, failures)


# An ASGI application as this site's wrappers see it: a scope, and the two ends of its messages.
Scope = dict[str, object]
Receive = Callable[[], Awaitable[dict[str, object]]]
Send = Callable[[dict[str, object]], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


class HandshakeGuard:
    """A websocket whose handshake meets the database away (Channels' AuthMiddleware reads the
    session and the person before the table's consumer runs) is refused quietly: one line in the
    log for the outage, and the page, which sees the refusal as a dropped connection, reconnects
    with its backoff. The consumer handles the database going away after that itself."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await self.app(scope, receive, send)
        except OUTAGE as error:
            away(error)
            await send({"type": "websocket.close"})  # before the accept: a refused handshake


def check_pool() -> None:
    """Every sweep: the pooled connections a database restart broke are replaced now, off the
    moves' path (psycopg_pool's ConnectionPool.check: one round trip per idle connection). Asking
    the pool to check each connection as it hands it out (Django's CONN_HEALTH_CHECKS) put that
    round trip before every database call: at 100 tables, p95 417-509 ms against 144-150 ms
    without, in alternating runs (docs/performance.md). Between a restart and the next sweep, a
    broken connection fails once, told in words like the outage itself."""
    pool = getattr(connection, "pool", None)  # PostgreSQL with DB_POOL; SQLite has none
    if pool is not None and not pool.closed:  # a new process's first sweep may come first
        pool.check()
