"""Where a long search runs (a master bot's decision, a review's weighing): in a few processes of
this server's own, never on its event loop's thread nor beside it in a thread.

A search is pure Python and busy for its whole budget. In a thread it would hold the interpreter's
lock against the event loop and every push of the process for as long as it thinks, so each
serving process keeps a small pool of worker processes (THINKING_PROCESSES, one per core by
default), started on first use. A search beyond that many waits its turn in the pool's queue: the
cap on how many run at once per process. The caller is a thread (a bot step in the runner's
threads, a review on its own lane), which blocks on the answer; nothing waits on the loop.

The workers are started with "spawn": a fork of a process that runs threads and an event loop can
copy a lock held at that instant and hang. A spawned worker imports only what the function needs
(an engine: pure Python, no Django). A worker that dies (killed, out of memory) breaks the pool;
the next search makes a new one, and the search it broke runs again once in the new pool.

The workers run at a lower priority (THINKING_NICENESS): a search's budget is CPU time, so a
busy machine makes it slower, never weaker, and the serving loops' pushes and pages go first.

THINKING_PROCESSES = 0 thinks in the caller's thread (commands, most tests): the same answer,
since a search's randomness comes from the rng it is handed, never from where it runs.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import ParamSpec, TypeVar

from django.conf import settings

P = ParamSpec("P")
R = TypeVar("R")

_lock = threading.Lock()
_pool: ProcessPoolExecutor | None = None
_size = 0


def processes() -> int:
    """How many searches this process runs at once (THINKING_PROCESSES, games/live/conf.py)."""
    return max(0, int(settings.THINKING_PROCESSES))


def think(func: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
    """`func(*args, **kwargs)` in the thinking pool (func and its arguments must pickle: a
    module-level function or a functools.partial of one), waiting for its turn and its answer."""
    if processes() == 0:
        return func(*args, **kwargs)
    for attempt in (1, 2):
        pool = _the_pool()
        try:
            return pool.submit(func, *args, **kwargs).result()
        except BrokenProcessPool:
            _discard(pool)
            if attempt == 2:
                raise
    raise AssertionError("unreachable")  # pragma: no cover


def _the_pool() -> ProcessPoolExecutor:
    """This process's pool, made on first use (or anew after a broken one or a changed size)."""
    global _pool, _size
    size = processes()
    with _lock:
        if _pool is not None and _size != size:
            _pool.shutdown(wait=False, cancel_futures=True)
            _pool = None
        if _pool is None:
            _pool = ProcessPoolExecutor(
                max_workers=size,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=os.nice,
                initargs=(int(settings.THINKING_NICENESS),),
            )
            _size = size
        return _pool


def _discard(pool: ProcessPoolExecutor) -> None:
    """Forget a broken pool (if it is still the current one); the next search makes a new one."""
    global _pool
    with _lock:
        if _pool is pool:
            _pool = None
    pool.shutdown(wait=False, cancel_futures=True)


def stop() -> None:
    """Stop the workers (a process that drains, a test that is done): searches under way finish."""
    global _pool
    with _lock:
        pool, _pool = _pool, None
    if pool is not None:
        pool.shutdown(wait=True, cancel_futures=True)
