"""A Redis that lost its keys forgot every group: this process's sockets join theirs again.

channels-redis keeps who is in which group in Redis only. A socket learns that Redis went away
when its blocking receive fails: it then closes with 3012 and the page reconnects. But a Redis
that comes back within the connection's retries (a quick restart, a failover) is never noticed by
the receive: the socket stays open, in no group, deaf to every move until the page's slow poll.

So one task per process (per event loop and layer) sets a marker key every WATCH_SECONDS,
reading its old value in the same command. A marker that is gone after it was set means Redis
lost its keys: every socket of this process joins its groups again and sends what changed since
its last push (a move announced to the empty groups meanwhile included). One round trip a
second per process and Redis host.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from typing import Any, Protocol

from redis.exceptions import RedisError

logger = logging.getLogger(__name__)

WATCH_SECONDS = 1.0
MARKER_SECONDS = 30  # the marker outlives a few missed ticks, and a stopped process briefly


class Rejoining(Protocol):
    """A socket that can join its groups again and catch up (games.consumers.GameConsumer)."""

    channel_layer: Any

    async def rejoin(self) -> None: ...


_sockets: weakref.WeakSet[Any] = weakref.WeakSet()
_watchers: dict[int, tuple[Any, asyncio.Task[None]]] = {}


def is_redis(layer: Any) -> bool:
    """Whether this channel layer keeps its groups in Redis (channels-redis's core layer)."""
    return hasattr(layer, "ring_size") and hasattr(layer, "connection")


def watch(socket: Rejoining) -> None:
    """Rejoin this socket's groups whenever its layer's Redis loses its keys (while it lives)."""
    layer = socket.channel_layer
    if not is_redis(layer):
        return
    _sockets.add(socket)
    loop = asyncio.get_running_loop()
    known = _watchers.get(id(loop))
    if known is None or known[0] is not layer or known[1].done() or known[1].get_loop() is not loop:
        _watchers[id(loop)] = (layer, loop.create_task(watch_forever(layer)))


def unwatch(socket: Rejoining) -> None:
    """This socket closed."""
    _sockets.discard(socket)


async def forgot(layer: Any, marker: str) -> bool:
    """Set the marker on every Redis host; True if any of them had lost it."""
    lost = False
    for index in range(layer.ring_size):
        old = await layer.connection(index).set(marker, b"1", ex=MARKER_SECONDS, get=True)
        lost = lost or old is None
    return lost


async def watch_forever(layer: Any) -> None:
    """Every WATCH_SECONDS: if Redis lost its keys since the last look, every socket rejoins."""
    marker = f"{layer.prefix}:alive:{layer.client_prefix}"
    first = True
    while True:
        try:
            lost = await forgot(layer, marker)
        except (RedisError, OSError):
            lost = False  # down: sockets close by their failed receive; a later look sees it back
        else:
            if lost and not first:
                await rejoin_all(layer)
            first = False
        await asyncio.sleep(WATCH_SECONDS)


async def rejoin_all(layer: Any) -> None:
    """Every socket of this process on this layer joins its groups again and catches up."""
    sockets = [s for s in list(_sockets) if s.channel_layer is layer]
    logger.warning(
        "Redis lost its keys (restarted?): %d sockets join their groups again", len(sockets)
    )
    outcomes = await asyncio.gather(*(s.rejoin() for s in sockets), return_exceptions=True)
    for outcome in outcomes:
        if isinstance(outcome, BaseException) and not isinstance(outcome, asyncio.CancelledError):
            logger.warning("A socket could not rejoin its groups: %r", outcome)
