"""The Redis channel layer under real conditions: quiet tables, and Redis going away mid-game."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async

from accounts.models import User
from games.models import Game
from tests.conftest import needs_env
from tests.web.sockets import socket
from tests.web.test_consumer import keep_first

pytestmark = [needs_env("REDIS_URL"), pytest.mark.django_db(transaction=True)]

QUIET_SECONDS = 30


@pytest.mark.xdist_group("quiet-redis-socket")
async def test_a_quiet_socket_stays_open_and_gets_the_next_move(
    running_game: Game, player: User, rival: User
) -> None:
    ws = await socket(running_game, player)
    connected, _ = await ws.connect()
    assert connected
    await ws.receive_from()
    assert await ws.receive_nothing(timeout=QUIET_SECONDS, interval=1)
    await database_sync_to_async(keep_first)(running_game, rival)
    assert 'id="board-version"' in await ws.receive_from(timeout=10)
    await ws.disconnect()
