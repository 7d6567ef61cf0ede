"""The task queue's worker inside each Daphne process, so `make run` stays one command.

Mails that leave the request (address verification, password resets: accounts/emails.py) are
django-tasks tasks queued in the database (django-tasks-db). Rather than a second process
(`manage.py db_worker`), every Daphne process's runner works the queue on its mail thread, at
each sweep and when a task is queued (games/live/runner.py). It runs django-tasks-db's own
worker, the db_worker command's Worker class (this is the only import of it; django-tasks-db is
pinned in pyproject.toml, so an upgrade that moves it fails here first), in batch mode: it claims
each due task under a row lock (two processes never run one task), runs it, records the outcome
(Task results in admin) and returns when none is left. A production site may also run
`manage.py db_worker`; they share the queue. Finished results are pruned here once an hour.
"""

from __future__ import annotations

import os
import socket
import time

from django.core.management import call_command
from django_tasks import DEFAULT_TASK_BACKEND_ALIAS
from django_tasks_db.management.commands.db_worker import Worker
from django_tasks_db.models import DBTaskResult

BATCH = 50
"""Tasks one run works at most: the rest wait for the next run, so the mail thread's other
work (the notifications' mails) is not held behind a flood."""

KEEP_DAYS = 1
"""Days a finished task's result is kept (a reset's result holds the address typed)."""

KEEP_FAILED_DAYS = 14
"""Days a failed task's result (a mail server's refusal, its traceback) is kept for operators."""

PRUNE_EVERY = 3600.0
"""Seconds between two prunings in one process."""

WORKER_ID = f"{socket.gethostname()}-{os.getpid()}"[:64]
"""How this process signs the tasks it ran (Task results in admin)."""

last_pruned: float | None = None


def run_due() -> None:
    """Run the tasks due now on this thread, up to BATCH, then prune if an hour has passed.

    The worker starts only when a task is due (one read): a quiet sweep takes no write lock and
    logs nothing.
    """
    if DBTaskResult.objects.ready().exists():
        work_the_queue()
    prune_now_and_then(time.monotonic())


def work_the_queue() -> None:
    """django-tasks-db's worker in batch mode: every due task, up to BATCH, then it returns."""
    Worker(
        queue_names=["*"],
        excluded_queue_names=[],
        interval=1.0,  # only while SQLite is locked: wait, then look again
        batch=True,
        backend_name=DEFAULT_TASK_BACKEND_ALIAS,
        startup_delay=False,
        max_tasks=BATCH,
        worker_id=WORKER_ID,
    ).run()


def prune_now_and_then(now: float) -> None:
    """Delete old finished results, at most once every PRUNE_EVERY seconds in this process."""
    global last_pruned
    if last_pruned is not None and now - last_pruned < PRUNE_EVERY:
        return
    last_pruned = now
    call_command(
        "prune_db_task_results",
        queue_name="*",
        min_age_days=KEEP_DAYS,
        failed_min_age_days=KEEP_FAILED_DAYS,
        verbosity=0,
    )
