"""PostgreSQL row locks and the Redis channel layer; skipped unless DATABASE_URL / REDIS_URL."""

from __future__ import annotations

import asyncio
import os
import threading
import uuid

import pytest
from channels.layers import get_channel_layer
from channels_redis.core import RedisChannelLayer
from django.db import connection

from accounts.models import User
from bakery_site.channel_layers import pubsub_layer
from games import groups, services
from games.live.channel_layer import HealingPubSubLayer
from games.models import Game
from tests.conftest import needs_env


@needs_env("DATABASE_URL")
@pytest.mark.django_db(transaction=True)
def test_two_plays_on_one_version_at_once_apply_only_one(
    running_game: Game, player: User, rival: User
) -> None:
    engine = running_game.spec.engine
    state = engine.load(running_game.snapshot)
    version = running_game.version
    outcomes: list[str] = []

    def act(user: User) -> None:
        position = running_game.seats.get(user=user).position
        try:
            services.play(running_game.pk, user, engine.legal_actions(state, position)[0], version)
            outcomes.append("ok")
        except services.StaleVersion:
            outcomes.append("stale")
        finally:
            connection.close()

    threads = [threading.Thread(target=act, args=(u,)) for u in (player, rival)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    running_game.refresh_from_db()
    assert sorted(outcomes) == ["ok", "stale"]
    assert running_game.actions.filter(user__is_bot=False).count() == 1
    assert running_game.version == version + 1


@pytest.mark.usefixtures("core_layer")
async def test_the_redis_layer_carries_a_group_message() -> None:
    layer = get_channel_layer()
    assert isinstance(layer, RedisChannelLayer)
    channel = await layer.new_channel()
    await layer.group_add(groups.group_name(0), channel)
    await layer.group_send(groups.group_name(0), {"type": "game.updated", "version": 7})
    assert await layer.receive(channel) == {"type": "game.updated", "version": 7}
    await layer.group_discard(groups.group_name(0), channel)


@needs_env("REDIS_URL")
async def test_the_pubsub_layer_carries_a_group_message_from_one_process_to_another() -> None:
    """The pub/sub layer (the default): a move announced through one process's layer reaches a
    socket of another process's layer (two layers, two Redis connections)."""
    config = pubsub_layer(os.environ["REDIS_URL"], f"test-pubsub-{uuid.uuid4().hex}")["CONFIG"]
    announcing, serving = HealingPubSubLayer(**config), HealingPubSubLayer(**config)
    try:
        channel = await serving.new_channel()
        await serving.group_add(groups.group_name(0), channel)
        await announcing.group_send(groups.group_name(0), {"type": "game.updated", "version": 7})
        got = await asyncio.wait_for(serving.receive(channel), 10)
        assert got == {"type": "game.updated", "version": 7}
        await serving.group_discard(groups.group_name(0), channel)
    finally:
        await announcing.flush()
        await serving.flush()
