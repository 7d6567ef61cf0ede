"""What runs every second in each serving process (games.live.runner.every): the pairing pass."""

from __future__ import annotations

import logging

from games import outages
from games.pairing import services

logger = logging.getLogger(__name__)

EVERY_SECONDS = 1.0


def sweep() -> None:
    """Pair the people waiting in every pool, and let go of those whose page went quiet; a pool
    whose pass fails is logged and the others go on."""
    for kind, pace in services.pools_looking():
        try:
            services.pass_pool(kind, pace)
        except outages.OUTAGE:
            raise  # the runner tells the outage once; every pool meets it alike
        except Exception:
            logger.exception("the pairing pass of %s at %s failed", kind, pace)
