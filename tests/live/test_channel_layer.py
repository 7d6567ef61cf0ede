"""The Redis channel layer's connections: a cancelled socket's receive really ends.

redis-py bounds a write with asyncio.wait_for, which on Python 3.11 returns normally when the
task is cancelled as the write finishes; a closed socket's channel receive then popped Redis
forever (games/live/channel_layer.py). These tests cancel at that very moment, and at random
moments against a real Redis.
"""

from __future__ import annotations

import asyncio
import random
import sys
from collections.abc import Iterator
from importlib.metadata import version
from typing import Any

import pytest
from channels.layers import get_channel_layer
from redis.asyncio.connection import AbstractConnection, Connection
from redis.exceptions import RedisError

from bakery_site.channel_layers import pubsub_layer
from games.live import channel_layer
from games.live.channel_layer import (
    BACK,
    LOST,
    HealingPubSubLayer,
    HealingShard,
    WaitingPoolLayer,
    cancellable,
)
from tests.support.daphnes import RedisServer, redis_server_or_skip


class Written:
    """A stream writer that takes every write at once, and then cancels the command's task in
    the very loop step the write finishes."""

    def __init__(self) -> None:
        self.command: asyncio.Task[bool] | None = None

    def writelines(self, data: Any) -> None:
        pass

    async def drain(self) -> None:
        assert self.command is not None
        asyncio.get_running_loop().call_soon(self.command.cancel)

    def close(self) -> None:
        pass

    async def wait_closed(self) -> None:
        pass


async def cancelled_as_the_write_finishes(connection_class: type[AbstractConnection]) -> bool:
    """Whether a command cancelled as its write finishes is told so at its next await (True),
    or goes on as if nothing was asked (False)."""
    writer = Written()
    connection = connection_class(socket_timeout=15)
    connection._reader, connection._writer = object(), writer  # type: ignore[assignment]

    async def command() -> bool:
        await connection.send_packed_command(b"PING\r\n", check_health=False)
        await asyncio.sleep(0.05)  # where the command would read its answer
        return False

    writer.command = asyncio.ensure_future(command())
    try:
        return await writer.command
    except asyncio.CancelledError:
        return True


async def test_a_write_cancelled_as_it_finishes_keeps_the_cancellation() -> None:
    assert await cancelled_as_the_write_finishes(cancellable(Connection))


def test_every_kind_of_pooled_connection_gets_cancellable_writes() -> None:
    layer = WaitingPoolLayer(hosts=[{"address": "redis://127.0.0.1:6379/0"}])
    pool = layer.create_pool(0)
    assert issubclass(pool.connection_class, Connection)
    assert pool.connection_class is cancellable(Connection)
    tls = WaitingPoolLayer(hosts=[{"address": "rediss://127.0.0.1:6379/0"}]).create_pool(0)
    assert tls.connection_class.__name__ == "CancellableSSLConnection"


@pytest.mark.usefixtures("core_layer")
async def test_a_receive_cancelled_at_any_moment_ends() -> None:
    layer = get_channel_layer()
    assert isinstance(layer, WaitingPoolLayer)
    moments = random.Random(7)
    for _ in range(300):
        channel = await layer.new_channel()
        receive = asyncio.ensure_future(layer.receive(channel))
        await asyncio.sleep(moments.choice([0, 0.0001, 0.0003, 0.0005, 0.001, 0.002]))
        receive.cancel()
        done, _ = await asyncio.wait([receive], timeout=8)  # past one 5 s blocking pop
        assert done, "a cancelled receive went on reading Redis"
        assert receive.cancelled()


async def heard_until(heard: list[str], state: str, seconds: float = 20) -> None:
    """Wait until the layer has told `state` (its receive loop looks ten times a second)."""
    for _ in range(int(seconds / 0.02)):
        if state in heard:
            return
        await asyncio.sleep(0.02)
    raise AssertionError(f"the layer never told {state!r}; it told {heard}")


@pytest.fixture
def own_redis() -> Iterator[RedisServer]:
    server = redis_server_or_skip()
    yield server
    server.stop()


@pytest.mark.parametrize("outage", ["quick", "long"])
async def test_the_pubsub_layer_tells_a_broken_subscription_and_its_mending(
    own_redis: RedisServer, outage: str
) -> None:
    """Redis is killed under a subscribed layer: after a long outage it has told LOST, and once
    Redis is back (at once, or later) BACK; a message published after BACK arrives, and a group
    left while Redis was away is unsubscribed then."""
    config = pubsub_layer(own_redis.url, "mend")["CONFIG"]
    serving, announcing = HealingPubSubLayer(**config), HealingPubSubLayer(**config)
    heard: list[str] = []
    serving.listen(lambda layer, state, why: heard.append(state))
    try:
        channel = await serving.new_channel()
        await serving.group_add("table", channel)
        await serving.group_add("left", channel)
        own_redis.stop(kill=True)
        if outage == "long":
            await heard_until(heard, LOST)
            with pytest.raises(RedisError):
                await serving.group_discard("left", channel)
        own_redis.start()
        await heard_until(heard, BACK)
        assert heard[-1] == BACK
        await announcing.group_send("table", {"type": "game.updated", "version": 8})
        assert await asyncio.wait_for(serving.receive(channel), 10) == {
            "type": "game.updated",
            "version": 8,
        }
        shard = serving._get_layer()._shards[0]
        assert isinstance(shard, HealingShard)
        if outage == "long":
            for _ in range(500):
                if "mend__group__left" not in shard._subscribed_to:
                    break
                await asyncio.sleep(0.02)
            assert shard._subscribed_to == {channel, "mend__group__table"}
    finally:
        await announcing.flush()
        await serving.flush()


@pytest.mark.parametrize("layer_class", [WaitingPoolLayer, HealingPubSubLayer])
async def test_a_receive_that_fails_on_redis_is_told_as_a_lost_layer(
    layer_class: type[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Channels would end the socket's application on the error (a close without a word, 1011);
    the table's consumer gets a message it closes on for the page to reconnect."""

    async def down(self: Any, channel: str) -> dict[str, Any]:
        raise RedisError("Connection refused")

    monkeypatch.setattr(channel_layer, "LOST_PAUSE", 0)
    monkeypatch.setattr(layer_class, "redis_receive", down)
    layer = layer_class(hosts=["redis://127.0.0.1:1/0"])
    assert await layer.receive("specific.test!x") == {
        "type": "layer.lost",
        "error": "Connection refused",
    }


async def test_the_adapter_was_checked_against_the_libraries_installed() -> None:
    """games/live/channel_layer.py subclasses channels-redis's and redis-py's internals: a new
    release of either fails here until the adapter is read against it again (and, for Python,
    until CPython's gh-86296 fix makes CancellableWrites unneeded)."""
    installed = {name: version(name) for name in channel_layer.CHECKED_AGAINST}
    assert installed == channel_layer.CHECKED_AGAINST
    assert sys.version_info[:2] == (3, 11)
    for owner, names in channel_layer.INTERNALS_USED.items():
        for name in names:
            assert hasattr(owner, name), f"{owner.__name__}.{name} is gone"
    layer = HealingPubSubLayer(hosts=["redis://127.0.0.1:1/0"])  # nothing is connected
    shard = layer._get_layer()._shards[0]
    assert isinstance(shard, HealingShard)
    for name in channel_layer.SHARD_STATE_USED:
        assert hasattr(shard, name), f"a pub/sub shard has no {name} any more"
