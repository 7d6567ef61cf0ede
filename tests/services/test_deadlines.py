"""Deadlines kept by the server: with every browser closed, the worker's sweep and timers make
the stand-in's move, and when several processes find one deadline due, exactly one acts.

Time is moved forward by patching the clocks' time; the tests wait on the database, never sleep
a fixed time.
"""

from __future__ import annotations

import random
import threading
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.db import connection

from accounts.models import User
from games import catalog, services
from games.live.runner import RUNNER, Runner
from games.models import Action, Game
from games.services.base import load_state, seats_in_order
from games.services.clocks import deadlines
from games.services.clocks.stand_in import store_stand_in
from tests.live.test_bot_worker import WAIT, until
from tests.support.clock import Clock

pytestmark = pytest.mark.django_db(transaction=True)

FAST = 20.0 + 60.0


def fast_night(people: list[User]) -> Game:
    game = services.create_game(people[0], "midnight-bakery", len(people), pace="fast")
    for user in people[1:]:
        services.join(game, user)
    services.start(game, people[0])
    return Game.objects.get(pk=game.pk)


def stand_ins(game: Game) -> int:
    return Action.objects.filter(game=game, bot=services.STAND_IN).count()


class Barrier:
    """Greedy bot that waits until `parties` stand-ins are thinking at once, then decides."""

    def __init__(self, parties: int) -> None:
        self.barrier = threading.Barrier(parties, timeout=WAIT)
        self.greedy = catalog.get("midnight-bakery").bots["greedy"]

    def choose(self, view: dict, legal: list[dict], rng: random.Random) -> dict:
        self.barrier.wait()
        return self.greedy(view, legal, rng)


@pytest.fixture
def together(monkeypatch: pytest.MonkeyPatch) -> Barrier:
    """Two stand-ins think at the same instant (each in its own thread and connection)."""
    held = Barrier(2)
    monkeypatch.setitem(catalog.get("midnight-bakery").bots, "greedy", held.choose)
    return held


def test_two_workers_racing_for_one_deadline_act_once(
    clock: Clock, together: Barrier, player: User, rival: User
) -> None:
    game = fast_night([player, rival])
    clock.forward(FAST)
    steps: list[Any] = []
    errors: list[BaseException] = []

    def worker_thread() -> None:
        try:
            steps.append(services.bot_step(game.pk))
        except BaseException as error:  # reported below
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=worker_thread) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(WAIT)
    assert not errors
    assert sorted(s.value for s in steps) == sorted(
        [services.Step.STORED.value, services.Step.MOVED_ON.value]
    )
    # Both bakers' time ran out at once: one stand-in move was stored for one of them.
    assert stand_ins(game) == 1
    game.refresh_from_db()
    assert game.spec.engine.dump(services.replay(game)) == game.snapshot


def test_a_stand_in_thought_out_on_an_older_table_is_not_stored(
    clock: Clock, player: User, rival: User
) -> None:
    game = fast_night([player, rival])
    clock.forward(FAST)
    state = load_state(game)
    seats = seats_in_order(game)
    late = next(s for s in seats if s.user_id == player.pk)
    legal = game.spec.engine.legal_actions(state, late.position)
    services.play(game, player, legal[0], game.version)  # the person moved just in time
    assert not store_stand_in(game, state, seats, late, legal[-1])
    assert not Action.objects.filter(game=game, user=player, bot=services.STAND_IN).exists()


@pytest.fixture
def after_commit(settings: Any) -> Iterator[None]:
    settings.BOT_MOVES = "after-commit"
    settings.BOT_SWEEP_SECONDS = 0.05
    yield


@pytest.fixture
async def runner(after_commit: None) -> AsyncIterator[Runner]:
    RUNNER.start()
    yield RUNNER
    await RUNNER.stop()


async def test_with_every_browser_closed_the_sweep_lets_a_stand_in_move(
    clock: Clock, runner: Runner, player: User, rival: User
) -> None:
    game = await database_sync_to_async(fast_night)([player, rival])
    assert await database_sync_to_async(deadlines.due_deadlines)() == []
    clock.forward(FAST)
    await until(lambda: stand_ins(game) >= 2, "stand-ins played both bakers' picks")
    moves = await database_sync_to_async(
        lambda: list(Action.objects.filter(game=game).values_list("seq", "bot"))
    )()
    assert moves[:2] == [(1, services.STAND_IN), (2, services.STAND_IN)]


async def test_two_runners_sweeping_one_due_deadline_store_it_once(
    clock: Clock, after_commit: None, player: User, rival: User
) -> None:
    game = await database_sync_to_async(fast_night)([player, rival])
    await database_sync_to_async(services.play)(
        game,
        rival,
        (await database_sync_to_async(first_legal)(game, rival)),
        game.version,
    )
    clock.forward(FAST)
    first, second = Runner(), Runner()
    first.start()
    second.start()
    try:
        await until(lambda: stand_ins(game) >= 1, "a stand-in moved for the late baker")
        await until(lambda: not first.busy and not second.busy, "both runners are idle")
    finally:
        await first.stop()
        await second.stop()
    assert await database_sync_to_async(stand_ins)(game) == 1


def first_legal(game: Game, user: User) -> dict:
    game = Game.objects.get(pk=game.pk)
    engine = game.spec.engine
    position = game.seats.get(user=user).position
    return dict(engine.legal_actions(engine.load(game.snapshot), position)[0])


async def test_a_drive_sets_a_timer_for_the_next_deadline_without_any_sweep(
    settings: Any, after_commit: None, player: User, rival: User
) -> None:
    settings.BOT_SWEEP_SECONDS = 3600  # only the first sweep, at the start, before any game
    settings.PACE_SCALE = 0.01  # a fast pick is 0.2 s plus a 0.6 s bank, on the real clock
    RUNNER.start()
    try:
        await until(lambda: True, "the runner's first sweep")
        game = await database_sync_to_async(fast_night)([player, rival])  # hints the runner
        await until(lambda: stand_ins(game) >= 1, "the timer woke the game for its deadline")
    finally:
        await RUNNER.stop()
