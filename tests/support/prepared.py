"""A fresh site's migrated SQLite database and collected static files, made once a test process
(bench/_prepared.py): the browser tests' sites copy and serve them, and the benches' short pass
hands their names to each bench it runs."""

from __future__ import annotations

from pathlib import Path

from bench import _prepared as prepared
from bench.web.site import base_env

_MADE: dict[str, str] = {}
"""This process's: the names of bench/_prepared.py, once made."""


def files(where: Path) -> dict[str, str]:
    """The migrated database and the static files, made in `where` (a new folder) the first time
    this process asks; their names (prepared.MIGRATED, prepared.COLLECTED)."""
    if not _MADE:
        where.mkdir(parents=True, exist_ok=True)
        _MADE.update(prepared.made(where, base_env()))
    return dict(_MADE)
