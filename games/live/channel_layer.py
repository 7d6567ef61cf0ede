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

The pub/sub layer (`HealingPubSubLayer`, the default on Redis) streams a group message once to
each process that has a socket in the group. A message published while a process's subscription
is broken is gone, and channels-redis 4.3 tells nobody: its receive task logs the error and
redis-py subscribes again on its next connect. Here the layer says both out loud to whoever
listens (games/live/layer_watch.py): "lost" when its receive fails, "back" when its
subscriptions are made again on a new connection.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Iterable, Mapping
from typing import cast

from channels_redis.core import RedisChannelLayer
from channels_redis.pubsub import (
    RedisPubSubChannelLayer,
    RedisPubSubLoopLayer,
    RedisSingleShardConnection,
)
from redis.asyncio import BlockingConnectionPool, ConnectionPool, Redis
from redis.asyncio.client import PubSub
from redis.asyncio.connection import AbstractConnection, Connection
from redis.exceptions import RedisError
from redis.exceptions import TimeoutError as RedisTimeoutError

logger = logging.getLogger(__name__)

# The one module that reaches into libraries' private names. It was read against these releases
# (tests/live/test_channel_layer.py fails on any other until it is read again):
CHECKED_AGAINST = {"channels-redis": "4.3.0", "redis": "8.1.0"}

LOST = "lost"  # a shard's subscriptions broke: what was published to them meanwhile is gone
BACK = "back"  # they are made again: what is published from now on arrives
Listener = Callable[["HealingPubSubLayer", str, str], None]  # (the layer, LOST or BACK, why)


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


def cancellable_pool(
    pool_class: type[ConnectionPool], host: Mapping[str, object]
) -> ConnectionPool:
    """A redis-py pool of this class for one Redis host (its address and connection options),
    whose connections have cancellable writes."""
    options = dict(host)
    pool = pool_class.from_url(cast(str, options.pop("address")), **options)
    pool.connection_class = cancellable(pool.connection_class)
    return pool


def cancellable(connection_class: type[AbstractConnection]) -> type[AbstractConnection]:
    """The pool's connection class (plain, TLS or a Unix socket) with cancellable writes."""
    if connection_class not in _cancellable:
        name = f"Cancellable{connection_class.__name__}"
        _cancellable[connection_class] = type(name, (CancellableWrites, connection_class), {})
    return _cancellable[connection_class]


LOST_PAUSE = 1.0  # seconds a failed receive waits before it answers (it is asked again at once)


class LostReceives:
    """A receive that fails on Redis answers a `layer.lost` message instead of raising.

    Channels hands a consumer its channel's messages through the layer's `receive`; an error
    there ends the consumer's application, and with it the socket without a word (1011). Told
    instead, the table's consumer closes the socket (not for good: the page reconnects and
    resyncs), and the socket's other work ends as usual.
    """

    async def receive(self, channel: str) -> dict[str, object]:
        try:
            return await self.redis_receive(channel)
        except RedisError as error:
            await asyncio.sleep(LOST_PAUSE)
            return {"type": "layer.lost", "error": str(error)}

    async def redis_receive(self, channel: str) -> dict[str, object]:
        """channels-redis's own receive of the channel's next message."""
        raise NotImplementedError


class WaitingPoolLayer(LostReceives, RedisChannelLayer):  # type: ignore[misc]  # no stubs
    """channels-redis's layer; each host's pool waits for a free connection when all are busy,
    its connections never swallow a cancellation, and a failed receive is told (LostReceives)."""

    async def redis_receive(self, channel: str) -> dict[str, object]:
        message: dict[str, object] = await RedisChannelLayer.receive(self, channel)
        return message

    def create_pool(self, index: int) -> ConnectionPool:
        if "address" not in self.hosts[index]:
            raise ValueError("Give each Redis host as an address (redis://host:port/db).")
        return cancellable_pool(BlockingConnectionPool, self.hosts[index])


class HealingPubSubLayer(LostReceives, RedisPubSubChannelLayer):  # type: ignore[misc]  # no stubs
    """channels-redis's pub/sub layer that tells its listeners when a shard's subscriptions broke
    and when they are back, and whose connections retry a command once on a fresh connection."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)
        self.listeners: list[Listener] = []

    async def redis_receive(self, channel: str) -> dict[str, object]:
        message: dict[str, object] = await self._get_layer().receive(channel)  # the loop's layer
        return message

    def listen(self, listener: Listener) -> None:
        """Call `listener(layer, LOST or BACK, why)` on the event loop where it happens."""
        if listener not in self.listeners:
            self.listeners.append(listener)

    def tell(self, state: str, why: str) -> None:
        for listener in list(self.listeners):
            listener(self, state, why)

    def _get_layer(self) -> RedisPubSubLoopLayer:
        layer: RedisPubSubLoopLayer = super()._get_layer()
        if not getattr(layer, "healing", False):  # a new event loop's layer: no shard used yet
            layer._shards = [HealingShard(shard.host, layer) for shard in layer._shards]
            layer.healing = True
        return layer


class NoticedPubSub(PubSub):
    """redis-py's PubSub that tells its shard when it subscribed again on a new connection."""

    shard: HealingShard

    async def on_connect(self, connection: Connection) -> None:
        await super().on_connect(connection)  # SUBSCRIBE again to every channel it had
        self.shard.back()


class HealingShard(RedisSingleShardConnection):  # type: ignore[misc]  # no stubs
    """One Redis host of the pub/sub layer, whose breaks and mends reach the layer's listeners.

    A failed receive is LOST (once an outage). redis-py connects the PubSub again on its next
    read and subscribes to everything again (`on_connect`, which runs on every connect but the
    first): BACK. A quick restart can be mended inside one read, with no failure seen: BACK alone.
    """

    _redis: Redis | None

    def __init__(self, host: dict[str, object], layer: RedisPubSubLoopLayer) -> None:
        super().__init__(host, layer)
        self.down = False
        self.unsubscribing: asyncio.Task[None] | None = None

    def _ensure_redis(self) -> None:
        if self._redis is None:
            pool = cancellable_pool(ConnectionPool, self.host)
            self._redis = Redis(connection_pool=pool)
            pubsub = NoticedPubSub(pool)
            pubsub.shard = self
            self._pubsub = pubsub

    def proxy(self) -> HealingPubSubLayer:
        layer: HealingPubSubLayer = self.channel_layer.channel_layer  # the loop layer's owner
        return layer

    def lost(self, error: BaseException) -> None:
        if not self.down:
            self.down = True
            logger.warning("Redis pub/sub lost at %s: %s", self.host.get("address"), error)
            self.proxy().tell(LOST, str(error))

    def back(self) -> None:
        self.down = False
        self.forget_stale()
        self.proxy().tell(BACK, "subscribed again")

    def forget_stale(self) -> None:
        """Channels whose sockets closed while Redis was away could not be unsubscribed then."""
        layer = self.channel_layer
        stale = self._subscribed_to - set(layer.channels) - set(layer.groups)
        if stale and (self.unsubscribing is None or self.unsubscribing.done()):
            self.unsubscribing = asyncio.get_running_loop().create_task(self.unsubscribe_all(stale))

    async def unsubscribe_all(self, channels: set[str]) -> None:
        layer = self.channel_layer
        for channel in channels:
            async with self._lock:  # a socket may have joined the group again meanwhile
                if channel in layer.channels or channel in layer.groups:
                    continue
                if channel in self._subscribed_to:
                    try:
                        await self._pubsub.unsubscribe(channel)
                    except RedisError as error:
                        logger.warning("Could not unsubscribe %s: %s", channel, error)
                        return
                    self._subscribed_to.discard(channel)

    async def _do_receiving(self) -> None:
        """channels-redis's receive loop, with a failed read told as LOST."""
        while True:
            try:
                if self._pubsub and self._pubsub.subscribed:
                    message = await self._pubsub.get_message(
                        ignore_subscribe_messages=True, timeout=0.1
                    )
                    self._receive_message(message)
                else:
                    await asyncio.sleep(0.1)
            except (RedisError, OSError) as error:
                self.lost(error)
                await asyncio.sleep(1)
            except (asyncio.CancelledError, GeneratorExit):
                raise
            except Exception:
                logger.exception("Unexpected exception in the pub/sub receive task")
                await asyncio.sleep(1)


# The private names used above, by their owners (the tripwire test checks each still exists).
INTERNALS_USED: dict[type, tuple[str, ...]] = {
    RedisPubSubChannelLayer: ("_get_layer",),
    RedisSingleShardConnection: ("_ensure_redis", "_do_receiving", "_receive_message"),
    AbstractConnection: ("send_packed_command",),
}
# ... and the state of a channels-redis pub/sub shard that HealingShard reads and sets.
SHARD_STATE_USED = ("_redis", "_pubsub", "_lock", "_subscribed_to", "channel_layer", "host")
