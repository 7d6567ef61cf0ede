"""The Redis channel layer: a pool that waits for a free connection instead of failing, and
connections whose writes never swallow a cancellation.

channels-redis makes one redis-py pool per event loop and Redis host (`create_pool`), a plain
`ConnectionPool` that opens a connection per command in flight and, since redis-py 6, raises
`MaxConnectionsError` past 100 of them. Every socket's connect and disconnect is a group change:
a few hundred sockets leaving at once (a deploy, a network blip, the end of a bench) made that
many commands at once and failed some of them. Here the pool is redis-py's
`BlockingConnectionPool`: at most `max_connections` connections per process and host, and a
command beyond them waits (up to `timeout` seconds) for one to come back.

redis-py bounds each write with `asyncio.wait_for`, which on Python 3.11 returns normally when
the task is cancelled just as the write finishes (CPython gh-86296, fixed in 3.12; redis-py#2028).
A socket's channel receive is cancelled when the socket closes; with that cancellation lost,
channels-redis's receive went on popping Redis every 5 s forever, so the closed socket's
application never ended (and a test's event loop never closed). Here writes are bounded by
`asyncio.timeout`, which keeps the cancellation.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from typing import Any

from channels_redis.core import RedisChannelLayer
from redis.asyncio import BlockingConnectionPool
from redis.asyncio.connection import AbstractConnection
from redis.exceptions import TimeoutError as RedisTimeoutError


class CancellableWrites(AbstractConnection):
    """A redis-py connection whose write is bounded by asyncio.timeout, not asyncio.wait_for."""

    async def send_packed_command(
        self, command: bytes | str | Iterable[bytes], check_health: bool = True
    ) -> None:
        limit = self.socket_timeout
        if not limit:
            await super().send_packed_command(command, check_health)
            return
        self.socket_timeout = None  # redis-py's own bound (wait_for) off; ours is around it
        try:
            async with asyncio.timeout(limit):
                await super().send_packed_command(command, check_health)
        except TimeoutError:
            await self.disconnect(nowait=True)
            raise RedisTimeoutError("Timeout writing to socket") from None
        finally:
            self.socket_timeout = limit


_cancellable: dict[type[AbstractConnection], type[AbstractConnection]] = {}


def cancellable(connection_class: type[AbstractConnection]) -> type[AbstractConnection]:
    """The pool's connection class (plain, TLS or a Unix socket) with cancellable writes."""
    if connection_class not in _cancellable:
        name = f"Cancellable{connection_class.__name__}"
        _cancellable[connection_class] = type(name, (CancellableWrites, connection_class), {})
    return _cancellable[connection_class]


class WaitingPoolLayer(RedisChannelLayer):
    """channels-redis's layer; each host's pool waits for a free connection when all are busy,
    and its connections never swallow a cancellation."""

    def create_pool(self, index: int) -> Any:
        host = dict(self.hosts[index])
        if "address" not in host:
            raise ValueError("Give each Redis host as an address (redis://host:port/db).")
        pool = BlockingConnectionPool.from_url(host.pop("address"), **host)
        pool.connection_class = cancellable(pool.connection_class)
        return pool
