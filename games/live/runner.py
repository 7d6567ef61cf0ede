"""The runner: each serving process's scheduler, on its own event loop. It only schedules; the
work it runs lives beside each feature.

- Bots and clocks: a commit that leaves a bot to act sends `bots_due` (games/services/base.py:
  commit_version; wired in games/wiring.py), which hints this process's runner. The runner drives
  that game one step at a time in a small thread pool (services.bot_step: a bot's move, or a
  stand-in's when a deadline passed, each its own short transaction), then sets a timer on the
  loop for the game's next deadline (games/services/clocks/deadlines.py says when, and leaves a
  deadline more than LONGEST_TIMER away to the sweep). Several processes may wake the same game:
  the version and deadline re-check under the row lock lets exactly one store each move.
- Its sweep, at start-up and every BOT_SWEEP_SECONDS, wakes the running games with a bot seat
  that did not move for a whole period (a restart, a process that died, a change made by a
  command) and the games with a deadline due, and sends the notifications' mails on the mail
  lane and pushes on the push lane (two lanes: neither waits on the other). The mail thread also
  works the task queue (games/live/task_worker.py: verification and password-reset mails), each
  sweep and as soon as a task is queued in this process.
- The features' periodic jobs (presence, rematches, absence, tables nobody started, lost turns,
  vacations, quick pairing, tournaments, the house table) are registered with `every` in
  games/wiring.py, each running on its own.

The runner lives on the server's loop, so announcements from its threads reach the in-memory
channel layer on that loop; it starts when Daphne's reactor runs (start_with_server) or at the
first ASGI call (serve), and never in inline mode (BOT_MOVES = "inline").
"""

from __future__ import annotations

import asyncio
import logging
import sys
from collections.abc import Awaitable, Callable, Coroutine, Mapping
from concurrent.futures import ThreadPoolExecutor
from typing import ParamSpec, TypeVar

from channels.db import DatabaseSyncToAsync
from django.conf import settings
from django.db import transaction

from games import groups, outages, services
from games.live import drain, task_worker
from games.notifications import sweep as notifications
from games.services.clocks import deadlines

logger = logging.getLogger(__name__)
P = ParamSpec("P")
R = TypeVar("R")


DRAINING_STEPS = 8
"""Bot steps a drive makes at most once its process is draining: a table's seats at most, so
every bot answers the people's moves still in flight, while a game of bots alone (its people
resigned, a bench's masters) is left to the next process's sweep instead of holding the drain
for as long as its game lasts (it held DRAIN_SECONDS whole: docs/performance.md)."""

PUSH_SWEEPS = 3
"""Push sweeps a process runs at once: one held by a slow push service (each push has its own
deadline) never keeps the next sweep's pushes waiting."""


Job = Callable[[], object]
Period = float | Callable[[], float]
"""Seconds between a job's runs, or a function saying them (read at every period)."""
JOBS: list[tuple[Period, Job]] = []
"""The features' periodic work (registered by `every`), run by each serving process's runner."""


def every(seconds: Period, job: Job) -> None:
    """Run `job` (a feature's sweep: synchronous, its own transactions) every `seconds` in each
    serving process, in the runner's threads, one run at a time; a failure is logged and the job
    runs again next period. Registered in games/wiring.py, before the server starts."""
    JOBS.append((seconds, job))


def each_sweep() -> float:
    """The period of the runner's sweep (BOT_SWEEP_SECONDS), for jobs that run with it."""
    return float(settings.BOT_SWEEP_SECONDS)


async def on_lane(send: Callable[[], object], lane: ThreadPoolExecutor, what: str) -> None:
    """Run a sending of notifications on its own lane's thread (the mails', the pushes'): an
    outage is noted, any other failure logged; either way it runs again next period."""
    try:
        await DatabaseSyncToAsync(send, thread_sensitive=False, executor=lane)()
    except outages.OUTAGE as error:
        outages.away(error)
    except Exception:
        logger.exception("%s failed; it runs again next period", what)


class Runner:
    """Drives due bot moves on one event loop; one task at a time per game."""

    def __init__(self) -> None:
        self.loop: asyncio.AbstractEventLoop | None = None
        self.pool: ThreadPoolExecutor | None = None
        self.mailer: ThreadPoolExecutor | None = None
        self.pusher: ThreadPoolExecutor | None = None
        self.sending = False
        self.pushing = 0
        self.tasks_waiting = False
        self.quieted = False
        self.busy: set[int] = set()
        self.again: set[int] = set()
        self.seen: dict[int, int] = {}
        self.woken: dict[int, int] = {}
        self.timers: dict[int, asyncio.TimerHandle] = {}
        self.tasks: set[asyncio.Task[None]] = set()
        self.periodic: set[asyncio.Task[None]] = set()

    def start(self) -> None:
        """Run on the current event loop, with a sweep at once (again on a new loop)."""
        groups.serve_here()  # this loop serves: the process's other threads send through it
        loop = asyncio.get_running_loop()
        if self.loop is loop or settings.BOT_MOVES == "inline":
            return
        self.reset()
        self.loop = loop
        self.pool = ThreadPoolExecutor(settings.BOT_THREADS, thread_name_prefix="bots")
        self.mailer = ThreadPoolExecutor(1, thread_name_prefix="mails")
        self.pusher = ThreadPoolExecutor(PUSH_SWEEPS, thread_name_prefix="pushes")
        self.periodic = {self.spawn(self.sweep_forever())}
        for seconds, job in JOBS:
            self.periodic.add(self.spawn(self.repeat(seconds, job)))

    def quiet(self) -> None:
        """This process is draining (games/live/drain.py): its sweep and periodic jobs stop (the
        other processes' go on); bot moves, mails and pushes under way, and new hints, go on,
        each drive for DRAINING_STEPS steps at most."""
        self.quieted = True
        for task in self.periodic:
            task.cancel()
        self.periodic = set()

    def idle(self) -> bool:
        """Whether nothing is under way: no bot moves, mails, pushes or queued tasks."""
        return not any(not task.done() for task in self.tasks)

    async def stop(self) -> None:
        """Cancel the sweep and the drives, and let the pool's threads finish."""
        tasks = list(self.tasks)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        pools = [self.pool, self.mailer, self.pusher]
        self.reset()
        for pool in pools:
            if pool is not None:
                await asyncio.get_running_loop().run_in_executor(None, pool.shutdown)

    def reset(self) -> None:
        """Forget the loop and everything learnt on it."""
        self.loop, self.pool, self.mailer, self.sending = None, None, None, False
        self.pusher, self.pushing = None, 0
        self.tasks_waiting = False
        self.quieted = False
        for timer in getattr(self, "timers", {}).values():
            timer.cancel()
        self.busy, self.again, self.seen, self.woken = set(), set(), {}, {}
        self.timers = {}
        self.tasks = set()
        self.periodic = set()

    def hint(self, game_id: int) -> None:
        """From any thread: a commit may have left a bot to act at this game."""
        loop = self.loop
        if loop is None or loop.is_closed():
            logger.debug("no bot runner in this process; a sweep will wake game %s", game_id)
            return
        loop.call_soon_threadsafe(self.wake, game_id)

    def wake(self, game_id: int) -> None:
        """Drive the game now, or once more after the drive under way."""
        if game_id in self.busy:
            self.again.add(game_id)
            return
        self.busy.add(game_id)
        self.spawn(self.drive(game_id))

    def spawn(self, work: Coroutine[object, None, None]) -> asyncio.Task[None]:
        """A task on the runner's loop, kept until it ends."""
        assert self.loop is not None
        task = self.loop.create_task(work)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)
        return task

    def in_pool(self, func: Callable[P, R]) -> Callable[P, Awaitable[R]]:
        """The function run in the bots' threads, with Django's connection upkeep around it."""
        run: Callable[P, Awaitable[R]] = DatabaseSyncToAsync(
            func, thread_sensitive=False, executor=self.pool
        )
        return run

    async def drive(self, game_id: int) -> None:
        """Bot steps, each in its own transaction, until no bot must act at the game (while
        draining, DRAINING_STEPS at most)."""
        step = self.in_pool(services.bot_step)
        draining_steps = 0
        try:
            while True:
                self.again.discard(game_id)
                while await step(game_id) is not services.Step.IDLE:
                    if self.quieted:
                        draining_steps += 1
                        if draining_steps >= DRAINING_STEPS:
                            return  # the next process's sweep wakes the game
                if game_id in self.again:
                    continue
                delay = await self.in_pool(deadlines.next_deadline)(game_id)
                if game_id in self.again:  # a commit hinted while the deadline was read
                    continue
                self.set_timer(game_id, delay)
                return
        except outages.OUTAGE as error:
            outages.away(error)
            self.woken.pop(game_id, None)
        except Exception:
            logger.exception("bot moves at game %s stopped; the next sweep tries again", game_id)
            self.woken.pop(game_id, None)
        finally:
            self.busy.discard(game_id)

    def set_timer(self, game_id: int, delay: float | None) -> None:
        """Wake the game when its next deadline is due (one timer per game, the latest wins)."""
        old = self.timers.pop(game_id, None)
        if old is not None:
            old.cancel()
        at = deadlines.timer_delay(delay)
        if at is not None and self.loop is not None:
            self.timers[game_id] = self.loop.call_later(at, self.timer_due, game_id)

    def timer_due(self, game_id: int) -> None:
        """A deadline came: drive the game."""
        self.timers.pop(game_id, None)
        self.wake(game_id)

    async def sweep_forever(self) -> None:
        """Wake stuck games and those with a deadline due, and send the mails and pushes due, at
        once and then every BOT_SWEEP_SECONDS."""
        first = True
        while True:
            try:
                for game_id in self.stuck(await self.in_pool(services.running_with_bots)(), first):
                    self.wake(game_id)
                for game_id in await self.in_pool(deadlines.due_deadlines)():
                    self.wake(game_id)
                self.spawn(self.send_mails())
                self.spawn(self.send_pushes())
                self.wake_tasks()
            except outages.OUTAGE as error:
                outages.away(error)
            except Exception:
                logger.exception("the bot sweep failed; it runs again next period")
            else:
                outages.answered()  # its reads went through
            first = False
            await asyncio.sleep(settings.BOT_SWEEP_SECONDS)

    async def repeat(self, seconds: Period, job: Job) -> None:
        """Run a feature's job now and then every `seconds`, until the runner stops."""
        run = self.in_pool(job)
        while True:
            try:
                await run()
            except outages.OUTAGE as error:
                outages.away(error)
            except Exception:
                logger.exception("%s failed; it runs again next period", job.__qualname__)
            await asyncio.sleep(seconds() if callable(seconds) else seconds)

    async def send_mails(self) -> None:
        """Mail the notifications due on the runner's mail lane, one sending at a time: a slow
        mail server never holds the sweep (sockets renewed, deadlines found), a bot's move, nor
        a push."""
        if self.sending or self.mailer is None:
            return
        self.sending = True
        try:
            await on_lane(notifications.send_mails, self.mailer, "sending notifications")
        finally:
            self.sending = False

    async def send_pushes(self) -> None:
        """Push the notifications due to browsers on the push lane, beside the mails: a slow
        push service never holds a mail, the sweep, nor (up to PUSH_SWEEPS) the next pushes."""
        if self.pushing >= PUSH_SWEEPS or self.pusher is None:
            return
        self.pushing += 1
        try:
            await on_lane(notifications.send_pushes, self.pusher, "pushing notifications")
        finally:
            self.pushing -= 1

    def hint_tasks(self) -> None:
        """From any thread: a task was queued (a mail leaving its request); run it now."""
        loop = self.loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self.wake_tasks)

    def wake_tasks(self) -> None:
        """Work the task queue on the mail thread, unless a run is already waiting for it."""
        if not self.tasks_waiting and self.mailer is not None:
            self.tasks_waiting = True
            self.spawn(self.run_tasks())

    async def run_tasks(self) -> None:
        """The queued tasks on the mail thread, after whatever it is sending (one thread: one
        thing at a time, so a slow mail server holds no bot nor sweep)."""
        try:
            await DatabaseSyncToAsync(
                self.run_tasks_now, thread_sensitive=False, executor=self.mailer
            )()
        except outages.OUTAGE as error:
            outages.away(error)
        except Exception:
            logger.exception("running the queued tasks failed; the next sweep tries again")
        finally:
            self.tasks_waiting = False  # at worst one run more, never none

    def run_tasks_now(self) -> None:
        """On the mail thread: a task queued from here on wakes another run."""
        self.tasks_waiting = False
        task_worker.run_due()

    def stuck(self, running: Mapping[int, int], first: bool) -> list[int]:
        """Games to wake: every one at start-up, then those whose version stood still a period.

        Each version is woken once by the sweep (a game waiting for a person costs one look),
        unless its drive failed (the database went away): then every period until it works.
        """
        due = [
            game_id
            for game_id, version in running.items()
            if (first or self.seen.get(game_id) == version) and self.woken.get(game_id) != version
        ]
        self.seen = dict(running)
        self.woken = {g: v for g, v in self.woken.items() if g in running}
        self.woken.update({g: running[g] for g in due})
        return due


RUNNER = Runner()


def hint(game_id: int) -> None:
    """A commit may have left a bot to act at this game: this process's runner looks."""
    RUNNER.hint(game_id)


def bots_due_here(sender: object, game_id: int, **kwargs: object) -> None:
    """The `bots_due` event (games/wiring.py): a committed change may leave a bot to act, or a
    clock to time: look."""
    hint(game_id)


def task_queued_here(sender: object, **kwargs: object) -> None:
    """django_tasks' task_enqueued (games/wiring.py): a task was queued in this process; its
    mail thread runs it once the queuing commits."""
    transaction.on_commit(RUNNER.hint_tasks, robust=True)


def serve(app: outages.ASGIApp) -> outages.ASGIApp:
    """The ASGI application, starting the runner on the server's loop at its first call."""

    async def with_bots(scope: outages.Scope, receive: outages.Receive, send: outages.Send) -> None:
        RUNNER.start()
        await app(scope, receive, send)

    return with_bots


def start_with_server() -> None:
    """Start the runner as soon as Daphne's reactor runs, before any request comes; from then on
    a stopping signal drains the process (games/live/drain.py)."""
    reactor = sys.modules.get("twisted.internet.reactor")
    if reactor is None:
        return
    if settings.BOT_MOVES != "inline":
        reactor.callLater(0, RUNNER.start)
    reactor.callLater(0, drain.install, RUNNER)  # its timed calls run once its signals are set
