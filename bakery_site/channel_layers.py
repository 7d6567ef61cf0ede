"""The channel layer's settings on Redis: how each process talks to Redis, and the two layers
CHANNEL_LAYER chooses between (bakery_site/settings.py names the one in use)."""

import os
from typing import NotRequired, TypedDict

from django.core.exceptions import ImproperlyConfigured

from bakery_site.env import env_int

# channels-redis waits up to 5 s for a message (BZPOPMIN); redis-py 8 reads with a 5 s timeout by
# default, so a quiet socket's wait timed out and crashed its consumer (channels_redis#422).
REDIS_SOCKET_TIMEOUT = 15.0
# Redis connections per process (each command in flight holds one; a mass disconnect makes
# hundreds of group changes at once): past this many a command waits, up to REDIS_POOL_WAIT s.
REDIS_POOL_MAX = env_int("REDIS_POOL_MAX", 50)
REDIS_POOL_WAIT = 10.0


class Layer(TypedDict):
    """A channel layer as CHANNEL_LAYERS names it: its class, and what it is made with."""

    BACKEND: str
    CONFIG: NotRequired[dict[str, object]]


def redis_host(url: str) -> dict[str, object]:
    """How each process talks to Redis: waits outlast the blocking pop, dead connections are
    replaced, and a command that met a connection Redis dropped is retried on a fresh one."""
    from redis.asyncio.retry import Retry
    from redis.backoff import ExponentialBackoff

    return {
        "address": url,
        "socket_timeout": REDIS_SOCKET_TIMEOUT,
        "socket_connect_timeout": 2.0,
        "health_check_interval": 10,
        "retry": Retry(ExponentialBackoff(cap=0.5, base=0.05), 2),
    }


def redis_layer(url: str, prefix: str) -> Layer:
    """The core channel layer on Redis (CHANNEL_LAYER=core): each socket's messages are a sorted
    set of its own, popped with a round trip per message; a burst of commands waits for a pooled
    connection (games/live/channel_layer.py)."""
    host = {**redis_host(url), "max_connections": REDIS_POOL_MAX, "timeout": REDIS_POOL_WAIT}
    # Several sites (or test runs) can share one Redis under different prefixes.
    return {
        "BACKEND": "games.live.channel_layer.WaitingPoolLayer",
        "CONFIG": {"hosts": [host], "prefix": prefix},
    }


def pubsub_layer(url: str, prefix: str) -> Layer:
    """The channel layer on Redis pub/sub (the default): a group message is one PUBLISH, streamed
    once to each process that has a socket in the group; the core layer stores it for each socket
    and each socket's process pops it with a round trip of its own. A broken subscription is told
    to the sockets, which close or catch up (games/live/layer_watch.py)."""
    return {
        "BACKEND": "games.live.channel_layer.HealingPubSubLayer",
        "CONFIG": {"hosts": [redis_host(url)], "prefix": prefix},
    }


def default_layer(url: str, prefix: str) -> Layer:
    """The layer CHANNEL_LAYER names (pubsub or core) on this Redis."""
    kind = os.environ.get("CHANNEL_LAYER", "pubsub")
    if kind not in {"pubsub", "core"}:
        raise ImproperlyConfigured(f"CHANNEL_LAYER is pubsub or core, not {kind!r}")
    return pubsub_layer(url, prefix) if kind == "pubsub" else redis_layer(url, prefix)
