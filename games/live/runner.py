"""Bot moves after the request: each server process runs the due ones on its own event loop.

A commit that leaves a bot to act hints this process's runner (transaction.on_commit). The runner
drives that game one bot step at a time in a small thread pool, each step its own short
transaction (services.bot_step): think on a loaded state, then lock, re-check the version and
store, announced on commit like any move. A sweep at start-up and every BOT_SWEEP_SECONDS wakes
the running games with a bot seat that did not move for a whole period (a restart, a process
that died, a change made by a command), so no game waits forever. Move clocks use the same
path: a drive that leaves a person's clock running sets a timer for its deadline on the loop,
and every sweep wakes the games with a deadline due (set by another process, or before a
restart); bot_step then lets a stand-in move. A deadline more than LONGEST_TIMER away (a
turn-based table's, days off) gets no timer: the sweep finds it when it is due. Several
processes may wake the same game: the version and deadline re-check under the row lock lets
exactly one store each move. The sweep also renews this process's sockets at the tables,
announces presence that changed with time (games.services.presence), deals the rematches that
wait only on people who went away (rematch.sweep), hands to a house bot the seat of a person
long away at a relaxed table (absence.sweep), closes the tables nobody started in time
(tables.close_unstarted_tables), and tells notifications, mails them on the mail lane and
pushes them to browsers on the push lane (two lanes: neither waits on the other). The mail
thread also works the task queue (games/live/task_worker.py: the verification and
password-reset mails), each sweep and as soon as a task is queued in this process.

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
from typing import Any

from channels.db import DatabaseSyncToAsync
from django.conf import settings
from django.db import transaction
from django.dispatch import receiver
from django_tasks.signals import task_enqueued

from games import groups, outages, services
from games.live import task_worker
from games.models import Game, Seat
from games.notifications import sweep as notifications
from games.services import bots_due, clocks, presence

logger = logging.getLogger(__name__)

ASGIApp = Callable[[Any, Any, Any], Awaitable[None]]

LONGEST_TIMER = 3600.0
"""Seconds: a deadline further off is left to the sweep, so no timer is held for days."""

PUSH_SWEEPS = 3
"""Push sweeps a process runs at once: one held by a slow push service (each push has its own
deadline) never keeps the next sweep's pushes waiting."""


def running_with_bots() -> dict[int, int]:
    """The version of every running game with a bot seat, by game id."""
    bots = Seat.objects.exclude(bot="").values("game_id")
    games = Game.objects.filter(status=Game.Status.RUNNING, pk__in=bots)
    return dict(games.values_list("pk", "version"))


def due_deadlines() -> list[int]:
    """The running games where a person's time ran out."""
    due = Seat.objects.filter(deadline__lte=clocks.now(), game__status=Game.Status.RUNNING)
    return sorted(set(due.values_list("game_id", flat=True)))


def next_deadline(game_id: int) -> float | None:
    """Seconds until the game's next deadline (negative if due), or None without a clock."""
    first = (
        Seat.objects.filter(game_id=game_id, game__status=Game.Status.RUNNING)
        .exclude(deadline=None)
        .order_by("deadline")
        .values_list("deadline", flat=True)
        .first()
    )
    return None if first is None else (first - clocks.now()).total_seconds()


def upkeep() -> list[int]:
    """Each sweep: replace the pooled connections a database restart broke, renew this
    process's sockets, announce presence moved by time, deal the rematches that someone's going
    away settled, give the seats of people long away at relaxed tables to bots, close the
    tables that waited too long for their start, tell the turns a lost signal missed and the
    tables of vacations that started or ended; the games with a deadline due. (The mails and
    pushes go on lanes of their own: Runner.send_mails and Runner.send_pushes.)"""
    parts = (
        outages.check_pool,
        presence.renew,
        presence.sweep,
        services.sweep_rematches,
        services.sweep_absences,
        services.close_unstarted_tables,
    )
    for part in (*parts, notifications.sweep_turns, services.announce_vacations):
        try:
            part()
        except outages.OUTAGE as error:
            outages.away(error)
        except Exception:  # one part failing must not keep the deadlines from their stand-ins
            logger.exception("%s failed in the sweep; it runs again next period", part.__module__)
    return due_deadlines()


Job = Callable[[], object]
JOBS: list[tuple[float, Job]] = []
"""The features' periodic work (registered by `every`), run by each serving process's runner."""


def every(seconds: float, job: Job) -> None:
    """Run `job` (a feature's sweep: synchronous, its own transactions) every `seconds` in each
    serving process, in the runner's threads, one run at a time; a failure is logged and the job
    runs again next period. Register from an AppConfig.ready(), before the server starts."""
    JOBS.append((seconds, job))


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
        self.busy: set[int] = set()
        self.again: set[int] = set()
        self.seen: dict[int, int] = {}
        self.woken: dict[int, int] = {}
        self.timers: dict[int, asyncio.TimerHandle] = {}
        self.tasks: set[asyncio.Task[None]] = set()

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
        self.spawn(self.sweep_forever())
        for seconds, job in JOBS:
            self.spawn(self.repeat(seconds, job))

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
        for timer in getattr(self, "timers", {}).values():
            timer.cancel()
        self.busy, self.again, self.seen, self.woken = set(), set(), {}, {}
        self.timers = {}
        self.tasks = set()

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

    def spawn(self, work: Coroutine[Any, Any, None]) -> None:
        """A task on the runner's loop, kept until it ends."""
        assert self.loop is not None
        task = self.loop.create_task(work)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def in_pool(self, func: Callable[..., Any]) -> Callable[..., Awaitable[Any]]:
        """The function run in the bots' threads, with Django's connection upkeep around it."""
        run: Callable[..., Awaitable[Any]] = DatabaseSyncToAsync(
            func, thread_sensitive=False, executor=self.pool
        )
        return run

    async def drive(self, game_id: int) -> None:
        """Bot steps, each in its own transaction, until no bot must act at the game."""
        step = self.in_pool(services.bot_step)
        try:
            while True:
                self.again.discard(game_id)
                while await step(game_id) is not services.Step.IDLE:
                    pass
                if game_id in self.again:
                    continue
                delay = await self.in_pool(next_deadline)(game_id)
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
        if delay is not None and delay <= LONGEST_TIMER and self.loop is not None:
            at = max(0.0, delay) + 0.05  # just past it: the stand-in checks it is due
            self.timers[game_id] = self.loop.call_later(at, self.timer_due, game_id)

    def timer_due(self, game_id: int) -> None:
        """A deadline came: drive the game."""
        self.timers.pop(game_id, None)
        self.wake(game_id)

    async def sweep_forever(self) -> None:
        """Wake stuck games at once and then every BOT_SWEEP_SECONDS."""
        first = True
        while True:
            try:
                for game_id in self.stuck(await self.in_pool(running_with_bots)(), first):
                    self.wake(game_id)
                for game_id in await self.in_pool(upkeep)():
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

    async def repeat(self, seconds: float, job: Job) -> None:
        """Run a feature's job now and then every `seconds`, until the runner stops."""
        run = self.in_pool(job)
        while True:
            try:
                await run()
            except outages.OUTAGE as error:
                outages.away(error)
            except Exception:
                logger.exception("%s failed; it runs again next period", job.__qualname__)
            await asyncio.sleep(seconds)

    async def send_mails(self) -> None:
        """Mail the notifications due on the runner's mail lane, one sending at a time: a slow
        mail server never holds the sweep (sockets renewed, deadlines found), a bot's move, nor
        a push."""
        if self.sending or self.mailer is None:
            return
        self.sending = True
        try:
            send = DatabaseSyncToAsync(
                notifications.send_mails, thread_sensitive=False, executor=self.mailer
            )
            await send()
        except outages.OUTAGE as error:
            outages.away(error)
        except Exception:
            logger.exception("sending notifications failed; it runs again next period")
        finally:
            self.sending = False

    async def send_pushes(self) -> None:
        """Push the notifications due to browsers on the push lane, beside the mails: a slow
        push service never holds a mail, the sweep, nor (up to PUSH_SWEEPS) the next pushes."""
        if self.pushing >= PUSH_SWEEPS or self.pusher is None:
            return
        self.pushing += 1
        try:
            push = DatabaseSyncToAsync(
                notifications.send_pushes, thread_sensitive=False, executor=self.pusher
            )
            await push()
        except outages.OUTAGE as error:
            outages.away(error)
        except Exception:
            logger.exception("pushing notifications failed; it runs again next period")
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


@receiver(bots_due)
def bots_due_here(sender: Any, game_id: int, **kwargs: Any) -> None:
    """The services committed a change that may leave a bot to act: look."""
    hint(game_id)


@receiver(task_enqueued)
def task_queued_here(sender: Any, **kwargs: Any) -> None:
    """A task was queued in this process: its mail thread runs it once the queuing commits."""
    transaction.on_commit(RUNNER.hint_tasks, robust=True)


def serve(app: ASGIApp) -> ASGIApp:
    """The ASGI application, starting the runner on the server's loop at its first call."""

    async def with_bots(scope: Any, receive: Any, send: Any) -> None:
        RUNNER.start()
        await app(scope, receive, send)

    return with_bots


def start_with_server() -> None:
    """Start the runner as soon as Daphne's reactor runs, before any request comes."""
    reactor = sys.modules.get("twisted.internet.reactor")
    if reactor is not None and settings.BOT_MOVES != "inline":
        reactor.callLater(0, RUNNER.start)
