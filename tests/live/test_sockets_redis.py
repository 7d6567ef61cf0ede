"""The Redis channel layer under real conditions: quiet tables, and Redis going away mid-game."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.test import Client

from accounts.models import User
from bakery_site.channel_layers import pubsub_layer, redis_layer
from games import groups
from games.models import Game
from tests.conftest import client_for, needs_env
from tests.live.test_consumer import batch_ids, keep_first
from tests.support.daphnes import RedisServer, redis_server_or_skip
from tests.support.sockets import closed_with, open_board, shown_version, socket

pytestmark = pytest.mark.django_db(transaction=True)

QUIET_SECONDS = 30
HTMX = {"HX-Request": "true"}
LAYER_LOST = 3012


@needs_env("REDIS_URL")
@pytest.mark.xdist_group("quiet-redis-socket")
async def test_a_quiet_socket_stays_open_and_gets_the_next_move(
    running_game: Game, player: User, rival: User
) -> None:
    ws = await socket(running_game, player)
    await open_board(ws)
    assert await ws.receive_nothing(timeout=QUIET_SECONDS, interval=1)
    await database_sync_to_async(keep_first)(running_game, rival)
    assert 'id="board-version"' in await ws.receive_from()
    await ws.disconnect()


@pytest.fixture(params=[pubsub_layer, redis_layer], ids=["pubsub", "core"])
def throwaway_redis(settings: object, request: pytest.FixtureRequest) -> Iterator[RedisServer]:
    """Each channel layer on a redis-server of the test's own."""
    server = redis_server_or_skip()
    settings.CHANNEL_LAYERS = {"default": request.param(server.url, "outage")}  # type: ignore[attr-defined]
    yield server
    server.stop()


def post_keep(game: Game, user: User) -> tuple[int, int]:
    """The user keeps their first card through the page's post: the status and stored version."""
    game.refresh_from_db()
    client: Client = client_for(user)
    action = {"type": "keep", "card": batch_ids(game, user)[0]}
    data = {"action": json.dumps(action), "version": game.version}
    response = client.post(f"/games/{game.pk}/play/", data, headers=HTMX)
    game.refresh_from_db()
    return response.status_code, game.version


@pytest.mark.xdist_group("throwaway-redis")
async def test_a_move_during_a_layer_outage_is_stored_and_reaches_sockets_after(
    running_game: Game, player: User, rival: User, throwaway_redis: RedisServer
) -> None:
    stored = running_game.version
    before = await socket(running_game, player)
    await open_board(before)
    throwaway_redis.stop()
    assert await closed_with(before, timeout=10) == LAYER_LOST
    status, version = await database_sync_to_async(post_keep)(running_game, rival)
    assert status == 200 and version > stored
    throwaway_redis.start()
    after = await socket(running_game, player)
    assert shown_version(await open_board(after)) == version
    await after.disconnect()


@pytest.mark.usefixtures("core_layer")
async def test_a_burst_of_sockets_leaving_waits_for_pooled_connections_and_never_fails() -> None:
    """Hundreds of sockets join and leave at once (a mass disconnect): every group change is
    made, on no more Redis connections than the pool allows."""
    layer = get_channel_layer()
    assert layer is not None
    pool = layer.connection(0).connection_pool
    sockets = [await layer.new_channel() for _ in range(3 * pool.max_connections)]
    names = [groups.group_name(n % 7) for n in range(len(sockets))]
    await asyncio.gather(*(layer.group_add(g, s) for g, s in zip(names, sockets, strict=True)))
    await asyncio.gather(*(layer.group_discard(g, s) for g, s in zip(names, sockets, strict=True)))
    redis = layer.connection(0)
    assert [await redis.zcard(layer._group_key(g)) for g in set(names)] == [0] * len(set(names))
    opened = len(pool._available_connections) + len(pool._in_use_connections)
    assert opened <= pool.max_connections
