"""Sockets heal when Redis restarts: they join their groups again, catch up, or reconnect.

channels-redis keeps who is in which group in Redis only. A socket learns that Redis went away
when its blocking receive fails: it then closes with 3012 and the page reconnects. But a Redis
that comes back within the connection's retries (a quick restart, a failover) is never noticed by
the receive: the socket stays open, in no group, deaf to every move until the page's slow poll.

So one task per process (per event loop and layer) sets a marker key every WATCH_SECONDS,
reading its old value in the same command. A marker that is gone after it was set means Redis
lost its keys: every socket of this process joins its groups again and sends what changed since
its last push (a move announced to the empty groups meanwhile included). One round trip a
second per process and Redis host.

The pub/sub layer (games/live/channel_layer.py) keeps its groups in the process, so a restarted
Redis forgets none of them; but a message published while a process's subscription is broken never
arrives. That layer says when: "lost" closes every socket of the process with 3012, as a failed
receive does on the core layer; "back" (subscribed again, after an outage or a restart quick
enough to go unseen) makes every socket left send what changed since its last push.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections.abc import Coroutine
from typing import Protocol, TypeGuard

from redis.asyncio import Redis
from redis.exceptions import RedisError

from games.live.channel_layer import BACK, LOST, HealingPubSubLayer

logger = logging.getLogger(__name__)

WATCH_SECONDS = 1.0
MARKER_SECONDS = 30  # the marker outlives a few missed ticks, and a stopped process briefly


class Rejoining(Protocol):
    """A socket that can join its groups again and catch up, or close for its page to reconnect
    (games.live.socket.Socket: every socket of the site)."""

    channel_layer: object

    async def rejoin(self) -> None: ...

    async def lose(self, why: str) -> None: ...


class RedisLayer(Protocol):
    """channels-redis's core layer as the watch reads it: its hosts' connections, its keys'
    prefixes."""

    ring_size: int
    prefix: str
    client_prefix: str

    def connection(self, index: int) -> Redis: ...


_sockets: weakref.WeakKeyDictionary[Rejoining, asyncio.AbstractEventLoop] = (
    weakref.WeakKeyDictionary()
)
_watchers: dict[int, tuple[RedisLayer, asyncio.Task[None]]] = {}
_healing: set[asyncio.Task[None]] = set()  # held until done (the loop holds tasks weakly)


def soon(work: Coroutine[object, None, None]) -> None:
    """Run this in its own task on the running loop."""
    task = asyncio.get_running_loop().create_task(work)
    _healing.add(task)
    task.add_done_callback(_healing.discard)


def is_redis(layer: object) -> TypeGuard[RedisLayer]:
    """Whether this channel layer keeps its groups in Redis (channels-redis's core layer)."""
    return not telling(layer) and hasattr(layer, "ring_size") and hasattr(layer, "connection")


def telling(layer: object) -> TypeGuard[HealingPubSubLayer]:
    """Whether this layer tells when its subscriptions broke and mended (HealingPubSubLayer)."""
    return isinstance(layer, HealingPubSubLayer)


def watch(socket: Rejoining) -> None:
    """Heal this socket (while it lives) whenever its layer's Redis loses its keys or its
    subscriptions."""
    layer = socket.channel_layer
    loop = asyncio.get_running_loop()
    if telling(layer):
        _sockets[socket] = loop
        layer.listen(told)
        return
    if not is_redis(layer):
        return
    _sockets[socket] = loop
    known = _watchers.get(id(loop))
    if known is None or known[0] is not layer or known[1].done() or known[1].get_loop() is not loop:
        _watchers[id(loop)] = (layer, loop.create_task(watch_forever(layer)))


def unwatch(socket: Rejoining) -> None:
    """This socket closed."""
    _sockets.pop(socket, None)


async def forgot(layer: RedisLayer, marker: str) -> bool:
    """Set the marker on every Redis host; True if any of them had lost it."""
    lost = False
    for index in range(layer.ring_size):
        old = await layer.connection(index).set(marker, b"1", ex=MARKER_SECONDS, get=True)
        lost = lost or old is None
    return lost


async def watch_forever(layer: RedisLayer) -> None:
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


def sockets_on(layer: object) -> list[Rejoining]:
    """This event loop's live sockets on this layer."""
    loop = asyncio.get_running_loop()
    return [s for s, on in list(_sockets.items()) if on is loop and s.channel_layer is layer]


def told(layer: object, state: str, why: str) -> None:
    """The pub/sub layer lost its subscriptions (every socket closes, its page reconnects) or
    made them again (every socket catches up)."""
    if state == LOST:
        sockets = sockets_on(layer)
        logger.warning("Redis pub/sub lost (%s): %d sockets close", why, len(sockets))
        for socket in sockets:
            soon(socket.lose(why))
    elif state == BACK:
        soon(rejoin_all(layer, "Redis pub/sub subscribed again"))


async def rejoin_all(layer: object, why: str = "Redis lost its keys (restarted?)") -> None:
    """Every socket of this process on this layer joins its groups again and catches up."""
    sockets = sockets_on(layer)
    if not sockets:
        return
    logger.warning("%s: %d sockets join their groups again", why, len(sockets))
    outcomes = await asyncio.gather(*(s.rejoin() for s in sockets), return_exceptions=True)
    for outcome in outcomes:
        if isinstance(outcome, BaseException) and not isinstance(outcome, asyncio.CancelledError):
            logger.warning("A socket could not rejoin its groups: %r", outcome)
