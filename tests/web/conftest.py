"""Fixtures the web tests share."""

from __future__ import annotations

import pytest

from tests.web.clock import Clock, patched_clock


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    """The server's time, moved forward by hand (tests/web/clock.py)."""
    return patched_clock(monkeypatch)
