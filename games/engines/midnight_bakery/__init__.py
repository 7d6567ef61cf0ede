"""Midnight Bakery: simultaneous card drafting for 2 to 8 bakers, a Night Owl at two."""

from games.engines.errors import IllegalAction
from games.engines.midnight_bakery.cards import face_name
from games.engines.midnight_bakery.night import is_over, new_game, result
from games.engines.midnight_bakery.pick import active_seats, apply_action, legal_actions
from games.engines.midnight_bakery.setup import RULES_VERSION, deal
from games.engines.midnight_bakery.shapes import Action, Result, Setup, StateData, View
from games.engines.midnight_bakery.state import State, dump, load
from games.engines.midnight_bakery.view import view

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
