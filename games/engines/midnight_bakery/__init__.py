"""Midnight Bakery: simultaneous card drafting for 2 to 8 bakers, a Night Owl at two."""

from games.engines.errors import IllegalAction
from games.engines.midnight_bakery.cards import face_name
from games.engines.midnight_bakery.night import new_game, night_result
from games.engines.midnight_bakery.pick import active_seats, apply_action, legal_actions
from games.engines.midnight_bakery.setup import deal
from games.engines.midnight_bakery.shapes import Action, Result, Setup, StateData, View
from games.engines.midnight_bakery.state import State, dump, load
from games.engines.midnight_bakery.view import view


def is_over(state: State) -> bool:
    """Whether dawn has come."""
    return state.over


def result(state: State) -> Result:
    """Final standings; only after dawn."""
    if not state.over:
        raise IllegalAction("The night is not over yet.")
    return night_result(state)


# Which rules a game was played under: stored with every game at its start. Bump it with any
# change that plays a stored game differently (the golden games in tests/ say when).
RULES_VERSION = 1

__all__ = [
    "Action",
    "IllegalAction",
    "RULES_VERSION",
    "Result",
    "Setup",
    "State",
    "StateData",
    "View",
    "active_seats",
    "apply_action",
    "deal",
    "dump",
    "face_name",
    "is_over",
    "legal_actions",
    "load",
    "new_game",
    "result",
    "view",
]
