"""High Card's bots: from their own view and the legal actions only."""

from __future__ import annotations

import random
from typing import Any


def choose_random(view: dict[str, Any], legal: list[dict[str, Any]], rng: random.Random) -> dict:
    """Any card."""
    return rng.choice(legal)


def choose_greedy(view: dict[str, Any], legal: list[dict[str, Any]], rng: random.Random) -> dict:
    """The higher card."""
    return max(legal, key=lambda action: action["card"])


BOTS = {"random": choose_random, "greedy": choose_greedy}
