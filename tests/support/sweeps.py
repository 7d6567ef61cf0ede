"""The runner's sweep, once, in the test's own thread: what each serving process does every
BOT_SWEEP_SECONDS (games/wiring.py registers the jobs; games/live/runner.py runs them)."""

from __future__ import annotations

from games.live import runner
from games.services.clocks.deadlines import due_deadlines


def sweep_once() -> list[int]:
    """Run every job registered to run with the runner's sweep, in the order registered; the
    games with a deadline due, which the sweep then wakes."""
    for period, job in runner.JOBS:
        if period is runner.each_sweep:
            job()
    return due_deadlines()
