"""The Redis channel layer with a pool that waits for a free connection instead of failing.

channels-redis makes one redis-py pool per event loop and Redis host (`create_pool`), a plain
`ConnectionPool` that opens a connection per command in flight and, since redis-py 6, raises
`MaxConnectionsError` past 100 of them. Every socket's connect and disconnect is a group change:
a few hundred sockets leaving at once (a deploy, a network blip, the end of a bench) made that
many commands at once and failed some of them. Here the pool is redis-py's
`BlockingConnectionPool`: at most `max_connections` connections per process and host, and a
command beyond them waits (up to `timeout` seconds) for one to come back.
"""

from __future__ import annotations

from typing import Any

from channels_redis.core import RedisChannelLayer
from redis.asyncio import BlockingConnectionPool


class WaitingPoolLayer(RedisChannelLayer):
    """channels-redis's layer; each host's pool waits for a free connection when all are busy."""

    def create_pool(self, index: int) -> Any:
        host = dict(self.hosts[index])
        if "address" not in host:
            raise ValueError("Give each Redis host as an address (redis://host:port/db).")
        return BlockingConnectionPool.from_url(host.pop("address"), **host)
