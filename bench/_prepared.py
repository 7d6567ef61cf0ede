"""A fresh site's SQLite database migrated and its static files collected once, then copied.

Every bench site on SQLite migrates a new database (61 migrations: about 10 s of CPU, 51 s of wall
on a loaded two-core machine) and bench-web's also collects its static files (about 5 s of CPU).
The benches' short pass (tests/bench/test_smoke.py) starts a dozen such sites a test run and the
browser tests one a test process. A test session makes them once (`made`, tests/fixtures.py:
prepared_files) and names them in the environment; a bench site then copies the database and
serves the static files instead (`copy_migrated`, `collected`). Run by hand, without those
names, every bench migrates and collects as before: the copy is only the tests' shortcut, and
the same commands make what it copies.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

MIGRATED = "BENCH_SQLITE_MIGRATED"
"""The environment's name of a migrated SQLite file that a new site copies."""
COLLECTED = "BENCH_STATIC_COLLECTED"
"""The environment's name of a folder of collected static files that a new site serves."""
NAMES = (MIGRATED, COLLECTED)

ROOT = Path(__file__).resolve().parents[1]


def made(folder: Path, env: dict[str, str]) -> dict[str, str]:
    """Migrate a new SQLite database and collect the static files in `folder`, by the site's own
    commands in `env` (as `make run` does); the names a bench site reads them by."""
    database = folder / "db.sqlite3"
    static = folder / "static"
    env = {
        **env,
        "DATABASE_URL": f"sqlite:///{database}",
        "DJANGO_SETTINGS_MODULE": "bench.web.settings",
        "BENCH_WEB_STATIC_ROOT": str(static),
    }
    for command in ("migrate", "collectstatic"):
        subprocess.run(
            [sys.executable, "manage.py", command, "--noinput", "-v", "0"],
            cwd=ROOT,
            env=env,
            check=True,
        )
    return {MIGRATED: str(database), COLLECTED: str(static)}


def copy_migrated(path: str | Path) -> bool:
    """Copy the migrated database the environment names to `path`; False if it names none."""
    source = os.environ.get(MIGRATED, "")
    if not source:
        return False
    shutil.copyfile(source, path)
    return True


def collected() -> str:
    """The folder of collected static files the environment names, or ""."""
    return os.environ.get(COLLECTED, "")
