"""Functions the thinking pool's tests hand to worker processes: importable with no Django set up
(a spawned worker imports only this module), as an engine's search is."""

from __future__ import annotations

import os
from pathlib import Path


def whose() -> int:
    """The id of the process that ran this."""
    return os.getpid()


def die_once(marker: str) -> int:
    """Kill this worker the first time (leaving the marker), answer the second time."""
    path = Path(marker)
    if not path.exists():
        path.write_text("died")
        os._exit(1)
    return os.getpid()


def niceness() -> int:
    """This process's niceness."""
    return os.nice(0)
