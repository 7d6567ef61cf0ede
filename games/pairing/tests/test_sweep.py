"""The sweep: registered with the runner, which pairs the people waiting on its own."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async

from accounts.models import User
from games.live import runner as live_runner
from games.live.runner import RUNNER
from games.models import Game
from games.pairing import services, sweep
from games.pairing.models import Seek
from tests.live.test_bot_worker import after_commit, until  # noqa: F401  (a fixture)

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_app_registers_its_sweep_with_the_runner() -> None:
    assert (sweep.EVERY_SECONDS, sweep.sweep) in live_runner.JOBS


def look_without_a_pass(user: User) -> None:
    services.look(user, "cakehalla", "fast", 2, 2)


async def test_the_runner_seats_the_people_waiting_by_itself(
    after_commit: None,  # noqa: F811
    player: User,
    rival: User,
) -> None:
    for person in (player, rival):
        await database_sync_to_async(look_without_a_pass)(person)
    RUNNER.start()
    try:
        await until(
            lambda: Game.objects.filter(status=Game.Status.RUNNING).exists(), "a table started"
        )
    finally:
        await RUNNER.stop()
    assert not await database_sync_to_async(Seek.objects.exists)()
