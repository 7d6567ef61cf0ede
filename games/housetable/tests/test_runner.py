"""The house table in a serving process: the runner's timers move its bots one pace apart (the
real path, no sweep), every process's version check storing each move once."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from itertools import pairwise
from typing import Any

import pytest
from channels.db import database_sync_to_async

from games.housetable import services as house
from games.housetable.models import HouseTable
from games.live.runner import RUNNER, Runner
from games.models import Action, Game

pytestmark = pytest.mark.django_db(transaction=True)

PACE = 0.3
WAIT = 30.0


@pytest.fixture
async def runner(settings: Any) -> AsyncIterator[Runner]:
    """This process's runner on the test's loop (bots left to it, its sweep out of the way)."""
    settings.BOT_MOVES = "after-commit"
    settings.BOT_SWEEP_SECONDS = 3600
    settings.HOUSE_TABLE_MOVE_SECONDS = PACE
    RUNNER.start()
    yield RUNNER
    await RUNNER.stop()


def house_game() -> Game:
    """The house table's game, started here or by the runner's own sweep (started with it)."""
    house.keep_going()
    found = HouseTable.objects.select_related("game").get().game
    assert found is not None
    return found


def moments(game: Game) -> list[Any]:
    """When each of the game's moves was stored."""
    stored = Action.objects.filter(game=game).order_by("seq")
    return list(stored.values_list("created_at", flat=True))


async def test_the_runner_moves_house_bots_a_pace_apart(runner: Runner) -> None:
    game = await database_sync_to_async(house_game)()
    for _ in range(int(WAIT / 0.05)):
        stored = await database_sync_to_async(moments)(game)
        if len(stored) >= 9:
            break
        await asyncio.sleep(0.05)
    else:
        raise AssertionError("the house bots stopped moving")
    await database_sync_to_async(game.refresh_from_db)()
    assert game.status == Game.Status.RUNNING  # not played through at once
    # Each move waits its pace after the last one stored (Midnight Bakery's bots pick together:
    # a round of three picks, then the next round a pace later).
    gaps = [(b - a).total_seconds() for a, b in pairwise(stored)]
    assert sum(gap >= PACE for gap in gaps) >= len(gaps) // game.capacity
