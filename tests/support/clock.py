"""A clock the tests move forward by hand: the move clocks and presence read it."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from django.utils import timezone

from games.services import clocks
from games.services.clocks import timing


class Clock:
    """The server's time, standing still until a test moves it."""

    def __init__(self) -> None:
        self.at: datetime = timezone.now()

    def __call__(self) -> datetime:
        return self.at

    def forward(self, seconds: float) -> None:
        """Move the time forward."""
        self.at += timedelta(seconds=seconds)


def patched_clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    """Patch the clocks' time with a Clock; it is returned. Patched where it is defined (the
    clocks' own modules read timing.now) and where the package hands it on (callers read
    clocks.now)."""
    clock = Clock()
    monkeypatch.setattr(timing, "now", clock)
    monkeypatch.setattr(clocks, "now", clock)
    return clock
