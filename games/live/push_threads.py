"""The threads a process's sockets read the database and render on, off the event loop."""

from __future__ import annotations

import threading
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

from channels.db import database_sync_to_async
from django.conf import settings
from django.utils import translation

T = TypeVar("T")


_push_pool: ThreadPoolExecutor | None = None
_push_pool_lock = threading.Lock()


def push_pool() -> ThreadPoolExecutor:
    """The threads this process's sockets read and render on (settings.PUSH_THREADS)."""
    global _push_pool
    with _push_pool_lock:
        if _push_pool is None:
            _push_pool = ThreadPoolExecutor(settings.PUSH_THREADS, thread_name_prefix="pushes")
        return _push_pool


def off_loop(fn: Callable[..., T], language: str | None = None) -> Callable[..., Awaitable[T]]:
    """Run sync code (database, rendering) on a push thread, so one socket's round trips never
    queue every other socket's push behind them; each socket still pushes one thing at a time
    (Socket.pushing), and the shared caches it reads lock themselves (boards/shared.py).
    `language`: the words it makes are in it (a socket's person's, accounts.languages), the
    thread's language before back afterwards."""
    if language is not None:
        fn = in_language(fn, language)
    run: Callable[..., Awaitable[T]] = database_sync_to_async(
        fn, thread_sensitive=False, executor=push_pool()
    )
    return run


def in_language(fn: Callable[..., T], language: str) -> Callable[..., T]:
    """`fn` run with `language` active (its renders are kept per language: boards/renders.py)."""

    def speaking(*args: object, **kwargs: object) -> T:
        with translation.override(language):
            return fn(*args, **kwargs)

    return speaking
