"""The engine package is pure Python: importing it pulls in nothing from Django."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


def test_engine_imports_nothing_from_django() -> None:
    code = (
        "import sys, games.engines.midnight_bakery, games.engines.midnight_bakery.bots;"
        "bad = sorted(m for m in sys.modules if m == 'django' or m.startswith('django.'));"
        "assert not bad, bad"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
