"""The clocks' time: what every clock, vacation and sweep reads as now.

Tests move it forward by patching `now` here and where the package hands it on
(tests/support/clock.py)."""

from __future__ import annotations

from datetime import datetime

from django.utils import timezone


def now() -> datetime:
    """The clocks' time (tests move it forward by patching this)."""
    return timezone.now()
