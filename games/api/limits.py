"""How often a token and a client address may ask: counts per fixed window in Django's cache (as
accounts.emails.under_limit counts mails), with the seconds left in the window for Retry-After."""

from __future__ import annotations

import math
import time

from django.core.cache import cache

WINDOW = 60
"""Seconds of one counting window."""


def now() -> float:
    """The limits' clock (tests move it)."""
    return time.time()


def wait_for(key: str, limit: int) -> int:
    """Count one more request under this key: 0 when within `limit` this window, else the
    whole seconds until the next window opens (at least 1)."""
    at = now()
    window = int(at // WINDOW)
    counted = f"api-limit:{key}:{window}"
    cache.add(counted, 0, timeout=WINDOW + 1)
    try:
        count = cache.incr(counted)
    except ValueError:  # expired between add and incr
        cache.set(counted, 1, timeout=WINDOW + 1)
        count = 1
    if count <= limit:
        return 0
    return max(1, math.ceil((window + 1) * WINDOW - at))
