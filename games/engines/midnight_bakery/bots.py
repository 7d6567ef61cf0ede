"""Midnight Bakery bots: each decides from its own seat's view and the legal actions only.

Weakest first: the site takes the last level as the strongest."""

import random

from games.engines.midnight_bakery.greedy import (
    BAKES,
    LOAVES,
    TART_VALUE,
    Bot,
    Table,
    card_face,
    choose_greedy,
)
from games.engines.midnight_bakery.master import choose_master
from games.engines.midnight_bakery.shapes import Action, View

__all__ = [
    "BAKES",
    "BOTS",
    "LOAVES",
    "TART_VALUE",
    "Bot",
    "Table",
    "card_face",
    "choose",
    "choose_greedy",
    "choose_master",
    "choose_random",
]


def choose_random(view: View, legal: list[Action], rng: random.Random) -> Action:
    """Any legal action, uniformly."""
    return rng.choice(legal)


BOTS: dict[str, Bot] = {"random": choose_random, "greedy": choose_greedy, "master": choose_master}


def choose(view: View, legal: list[Action], rng: random.Random, level: str = "greedy") -> Action:
    """The action a bot of this level picks from its own view."""
    return BOTS[level](view, legal, rng)
