"""A clock the tests move forward by hand: the move clocks and presence read it."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from django.utils import timezone

from games.services import clocks


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
    """Patch the clocks' time with a Clock; it is returned."""
    clock = Clock()
    monkeypatch.setattr(clocks, "now", clock)
    return clock
