"""Bots move after the request, through the runner of games/live/runner.py (the real path).

Each bot decision is its own short transaction after the previous commit, announced like any
move; its thinking holds no lock; a due move left by a stopped process is made after a restart.
"""

from __future__ import annotations

import asyncio
import random
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.core import mail
from django.db import OperationalError
from django.test import Client

from accounts.models import User
from games import catalog, groups, services
from games.live import runner as live_runner
from games.live import task_worker
from games.live.runner import RUNNER, Runner
from games.models import Action, Game
from games.notifications import sweep as notifications
from games.services.bots import running_with_bots
from games.services.clocks import deadlines

pytestmark = pytest.mark.django_db(transaction=True)

WAIT = 30.0


class Gate:
    """A bot that thinks until the test opens the gate, then plays as the greedy bot."""

    def __init__(self, greedy: Callable[..., dict]) -> None:
        self.greedy = greedy
        self.thinking = threading.Event()
        self.opened = threading.Event()

    def choose(self, view: dict, legal: list[dict], rng: random.Random) -> dict:
        self.thinking.set()
        if not self.opened.wait(WAIT):
            raise RuntimeError("the test never opened the gate")
        return self.greedy(view, legal, rng)


@pytest.fixture
def after_commit(settings: Any) -> Iterator[None]:
    """The real path: bots are left to this process's runner."""
    settings.BOT_MOVES = "after-commit"
    settings.BOT_SWEEP_SECONDS = 3600
    yield


@pytest.fixture
async def runner(after_commit: None) -> AsyncIterator[Runner]:
    """The process's runner on the test's loop, with every job wiring gave it, stopped
    afterwards."""
    RUNNER.start()
    yield RUNNER
    await RUNNER.stop()


@pytest.fixture
def gate(monkeypatch: pytest.MonkeyPatch) -> Gate:
    """Midnight Bakery's greedy bot, held at the gate while it thinks."""
    bots = catalog.get("midnight-bakery").bots
    held = Gate(bots["greedy"])
    monkeypatch.setitem(bots, "greedy", held.choose)
    return held


async def until(check: Callable[[], bool], what: str) -> None:
    """Wait on the database until the check holds (bounded)."""
    probe = database_sync_to_async(check)
    for _ in range(int(WAIT / 0.02)):
        if await probe():
            return
        await asyncio.sleep(0.02)
    raise AssertionError(f"timed out waiting until {what}")


def table(people: list[User], bots: int) -> Game:
    """An open Midnight Bakery table of the people and greedy bots."""
    game = services.create_game(people[0], "midnight-bakery", len(people) + bots)
    for user in people[1:]:
        services.join(game, user)
    for _ in range(bots):
        services.add_bot(game, people[0], "greedy")
    return game


def bot_moves(game: Game) -> int:
    return Action.objects.filter(game=game).exclude(bot="").count()


def waits_for_people(game: Game) -> bool:
    """No bot must act at the game now: the bots have answered."""
    game = fresh(game)
    return not services.bot_due(game)


def fresh(game: Game) -> Game:
    return Game.objects.get(pk=game.pk)


def keep_first(game: Game, user: User) -> None:
    """The person keeps the first card of their batch."""
    game = fresh(game)
    engine = game.spec.engine
    position = game.seats.get(user=user).position
    legal = engine.legal_actions(engine.load(game.snapshot), position)
    services.play(game, user, legal[0], game.version)


async def announced(game: Game) -> tuple[Any, str]:
    """A channel of the table's group, as a socket joins it."""
    layer = get_channel_layer()
    assert layer is not None
    channel = await layer.new_channel()
    await layer.group_add(groups.group_name(game.pk), channel)
    return layer, channel


async def test_bots_move_after_the_start_each_in_its_own_version_announced(
    runner: Runner, gate: Gate, player: User
) -> None:
    game = await database_sync_to_async(table)([player], 2)
    layer, channel = await announced(game)
    await database_sync_to_async(services.start)(game, player)
    started = await database_sync_to_async(fresh)(game)
    assert await database_sync_to_async(bot_moves)(game) == 0
    gate.opened.set()
    await until(lambda: bot_moves(game) == 2, "both bots kept a card")
    after = await database_sync_to_async(fresh)(game)
    assert after.version == started.version + 2
    seqs = await database_sync_to_async(
        lambda: list(Action.objects.filter(game=game).values_list("seq", flat=True))
    )()
    assert seqs == [1, 2]
    versions = [(await layer.receive(channel))["version"] for _ in range(3)]
    assert versions == [started.version, started.version + 1, started.version + 2]


async def test_a_person_plays_while_a_bot_thinks_and_the_bot_rechecks(
    runner: Runner, gate: Gate, player: User
) -> None:
    game = await database_sync_to_async(table)([player], 1)
    await database_sync_to_async(services.start)(game, player)
    assert await asyncio.to_thread(gate.thinking.wait, WAIT)
    await database_sync_to_async(keep_first)(game, player)
    assert await database_sync_to_async(bot_moves)(game) == 0
    gate.opened.set()
    await until(lambda: waits_for_people(game), "the bot answered the person")
    rows = await database_sync_to_async(
        lambda: list(Action.objects.filter(game=game).values_list("seq", "bot"))
    )()
    assert rows[:2] == [(1, ""), (2, "greedy")]
    after = await database_sync_to_async(fresh)(game)
    assert after.spec.engine.dump(await database_sync_to_async(services.replay)(after)) == (
        after.snapshot
    )


async def test_a_resign_returns_before_the_bots_play_the_game_out(
    runner: Runner, gate: Gate, player: User, rival: User
) -> None:
    game = await database_sync_to_async(table)([player, rival], 0)
    await database_sync_to_async(services.start)(game, player)
    await database_sync_to_async(services.resign)(game, player)
    await database_sync_to_async(services.resign)(game, rival)
    resigned = await database_sync_to_async(fresh)(game)
    assert resigned.status == Game.Status.RUNNING and resigned.moves == 0
    gate.opened.set()
    await until(lambda: fresh(game).status == Game.Status.OVER, "the bots finished the game")
    over = await database_sync_to_async(fresh)(game)
    assert over.version == resigned.version + over.moves
    assert over.spec.engine.dump(await database_sync_to_async(services.replay)(over)) == (
        over.snapshot
    )


async def test_a_bot_move_due_when_the_process_stopped_is_made_after_a_restart(
    after_commit: None, player: User
) -> None:
    game = await database_sync_to_async(table)([player], 2)
    await database_sync_to_async(services.start)(game, player)
    assert await database_sync_to_async(bot_moves)(game) == 0
    RUNNER.start()
    try:
        await until(lambda: bot_moves(game) == 2, "the restarted process moved the bots")
    finally:
        await RUNNER.stop()


async def test_two_runners_woken_for_one_game_store_each_bot_move_once(
    after_commit: None, player: User, rival: User
) -> None:
    game = await database_sync_to_async(table)([player, rival], 0)
    await database_sync_to_async(services.start)(game, player)
    await database_sync_to_async(services.resign)(game, player)
    await database_sync_to_async(services.resign)(game, rival)
    first, second = Runner(), Runner()
    first.start()
    second.start()
    try:
        first.wake(game.pk)
        second.wake(game.pk)
        await until(lambda: fresh(game).status == Game.Status.OVER, "the bots finished the game")
    finally:
        await first.stop()
        await second.stop()
    over = await database_sync_to_async(fresh)(game)
    assert over.spec.engine.dump(await database_sync_to_async(services.replay)(over)) == (
        over.snapshot
    )


async def test_a_failed_bot_step_is_tried_again_by_the_next_sweep(
    after_commit: None, settings: Any, monkeypatch: pytest.MonkeyPatch, player: User
) -> None:
    settings.BOT_SWEEP_SECONDS = 0.05
    game = await database_sync_to_async(table)([player], 2)
    await database_sync_to_async(services.start)(game, player)
    step, failures = services.bot_step, iter([True])

    def flaky(game_id: int) -> services.Step:
        if next(failures, False):
            raise OperationalError("the database went away")
        return step(game_id)

    monkeypatch.setattr(services, "bot_step", flaky)
    RUNNER.start()
    try:
        await until(lambda: bot_moves(game) == 2, "a later sweep moved the bots")
    finally:
        await RUNNER.stop()


async def test_a_move_made_while_a_drive_ends_is_not_lost(
    runner: Runner, monkeypatch: pytest.MonkeyPatch, player: User
) -> None:
    """A person's move committed while the runner reads the game's next deadline, at the end of
    its drive, still gets its bots' answers (not only at the next sweep, an hour away here)."""
    game = await database_sync_to_async(table)([player], 2)
    read_deadline, moved = deadlines.next_deadline, list[bool]()

    def move_meanwhile(game_id: int) -> float | None:
        # The bots answered the start: the person picks as the drive ends (this game's drive:
        # the house table's job may have dealt a game of bots that the runner drives too).
        if game_id == game.pk and not moved:
            moved.append(True)
            keep_first(game, player)
        return read_deadline(game_id)

    monkeypatch.setattr(deadlines, "next_deadline", move_meanwhile)
    await database_sync_to_async(services.start)(game, player)
    await until(lambda: bot_moves(game) == 4, "the bots answered the move made meanwhile")


def test_the_sweep_wakes_every_game_at_start_then_only_games_that_stood_still() -> None:
    sweeper = Runner()
    assert sweeper.stuck({1: 5, 2: 7}, first=True) == [1, 2]
    assert sweeper.stuck({1: 6, 2: 7, 3: 1}, first=False) == []
    assert sweeper.stuck({1: 6, 2: 7, 3: 1}, first=False) == [1, 3]
    assert sweeper.stuck({1: 6, 2: 8, 3: 1}, first=False) == []
    assert sweeper.stuck({1: 6, 2: 8}, first=False) == [2]


def test_the_sweep_lists_running_games_with_a_bot_seat(
    after_commit: None, player: User, rival: User
) -> None:
    people = table([player, rival], 0)
    services.start(people, player)
    with_bot = table([player], 1)
    services.start(with_bot, player)
    table([player], 1)
    assert running_with_bots() == {with_bot.pk: fresh(with_bot).version}


def test_each_part_of_the_sweep_is_a_job_of_its_own() -> None:
    """A part failing (the database away a moment) keeps no other part, nor the deadlines the
    runner's own sweep finds, waiting: each runs on its own (a failed run is logged and runs
    again next period: the test below)."""
    from games.services import absence, presence

    with_sweep = [job for period, job in live_runner.JOBS if period is live_runner.each_sweep]
    for part in (presence.renew, absence.sweep, notifications.sweep_turns):
        assert with_sweep.count(part) == 1
    assert services.close_unstarted_tables in with_sweep
    assert deadlines.due_deadlines not in with_sweep  # the runner's own sweep wakes those


@pytest.mark.parametrize(
    ("bots", "pace", "wakes"),
    [
        (0, Game.Pace.RELAXED, 0),  # people only, no clock: nothing for the worker to do
        (0, Game.Pace.FAST, 3),  # a clock runs after every keep: the worker sets its timer
        (1, Game.Pace.RELAXED, 1),  # only the last keep deals a pick that waits on the bot
    ],
)
def test_a_move_wakes_the_worker_only_when_it_leaves_it_something_to_do(
    after_commit: None,
    monkeypatch: pytest.MonkeyPatch,
    make_user: Callable[[str], User],
    bots: int,
    pace: str,
    wakes: int,
) -> None:
    people = [make_user(f"baker-{n}") for n in range(3 - bots)]
    game = services.create_game(people[0], "midnight-bakery", 3, pace=pace)
    for user in people[1:]:
        services.join(game, user)
    for _ in range(bots):
        services.add_bot(game, people[0], "greedy")
    services.start(game, people[0])
    if bots:  # the bot keeps its first card, as the worker would make it
        services.run_bots(game.pk)
    hints: list[int] = []
    monkeypatch.setattr("games.live.runner.hint", hints.append)
    for user in people:
        keep_first(game, user)
    assert hints == [game.pk] * wakes


async def test_a_mail_server_that_hangs_holds_neither_the_sweep_nor_a_second_sending(
    after_commit: None, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings.BOT_SWEEP_SECONDS = 0.05
    hung, let_go = threading.Event(), threading.Event()
    sendings: list[str] = []
    sweeps: list[float] = []

    def hanging_mail_server() -> None:
        sendings.append(threading.current_thread().name)
        hung.set()
        let_go.wait(WAIT)

    monkeypatch.setattr(notifications, "send_mails", hanging_mail_server)

    def due_deadlines() -> list[int]:
        sweeps.append(time.monotonic())
        return []

    monkeypatch.setattr(deadlines, "due_deadlines", due_deadlines)
    RUNNER.start()
    try:
        await until(hung.is_set, "the notifications were sent")
        seen = len(sweeps)
        await until(lambda: len(sweeps) >= seen + 3, "the sweep went on while the mail hung")
        assert len(sendings) == 1  # no second sending piles up behind the hung one
        assert sendings[0].startswith("mails")
    finally:
        let_go.set()
        await RUNNER.stop()


async def test_a_features_job_runs_every_period_in_the_runners_threads_and_survives_a_failure(
    after_commit: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    runs: list[str] = []

    def job() -> None:
        runs.append(threading.current_thread().name)
        if len(runs) == 1:
            raise RuntimeError("the first run fails")

    monkeypatch.setattr(live_runner, "JOBS", [])
    live_runner.every(0.01, job)
    RUNNER.start()
    try:
        await until(lambda: len(runs) >= 3, "the job ran again after its failure")
        assert all(name.startswith("bots") for name in runs)
    finally:
        await RUNNER.stop()
    stopped = len(runs)
    await asyncio.sleep(0.05)
    assert len(runs) == stopped  # the runner's stop ends the job's repeats


async def test_a_reset_mail_queued_in_a_request_goes_out_on_the_runners_mail_thread_at_once(
    after_commit: None, settings: Any, monkeypatch: pytest.MonkeyPatch, make_user: Any
) -> None:
    """The task queue's worker runs inside the process (no second command for `make run`): the
    start-up sweep works the queue, and a task queued later is run at once, not at the next
    sweep (an hour off here)."""
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    runs: list[str] = []
    work_the_queue = task_worker.run_due

    def counted() -> None:
        work_the_queue()
        runs.append(threading.current_thread().name)

    monkeypatch.setattr(task_worker, "run_due", counted)

    def ask_for_a_reset() -> None:
        dora = make_user("dora")
        dora.email, dora.email_verified = "dora@example.com", True
        dora.save()
        Client().post("/accounts/password/reset/", {"email": "dora@example.com"})

    RUNNER.start()
    try:
        await until(lambda: len(runs) == 1, "the start-up sweep worked the queue")
        await database_sync_to_async(ask_for_a_reset)()
        await until(lambda: len(mail.outbox) == 1, "the reset mail went out")
        assert mail.outbox[0].to == ["dora@example.com"]
        await until(lambda: len(runs) == 2, "the run the request woke ended")
        assert all(name.startswith("mails") for name in runs)  # the mail thread
    finally:
        await RUNNER.stop()


async def test_a_draining_process_leaves_a_game_of_bots_to_the_next_after_a_round_of_steps(
    after_commit: None, player: User, rival: User
) -> None:
    """The people resigned: the bots would play the game out in one drive, holding the drain as
    long. Draining, the drive stops after DRAINING_STEPS steps and the runner is idle; the next
    process (its start-up sweep) plays the game out."""
    game = await database_sync_to_async(table)([player, rival], 0)
    await database_sync_to_async(services.start)(game, player)
    await database_sync_to_async(services.resign)(game, player)
    await database_sync_to_async(services.resign)(game, rival)  # no runner yet: no drive
    RUNNER.start()
    try:
        RUNNER.quiet()  # draining, before its sweep woke the game
        RUNNER.wake(game.pk)  # as the resign's hint would
        for _ in range(int(WAIT / 0.02)):
            if RUNNER.idle():
                break
            await asyncio.sleep(0.02)
        else:
            raise AssertionError("the draining runner never went idle")
        left = await database_sync_to_async(fresh)(game)
        assert left.status == Game.Status.RUNNING
        assert 0 < left.moves <= live_runner.DRAINING_STEPS  # a step is a move or the table's own
        await RUNNER.stop()
        RUNNER.start()  # the next process
        await until(
            lambda: fresh(game).status == Game.Status.OVER, "the next process played it out"
        )
    finally:
        await RUNNER.stop()
