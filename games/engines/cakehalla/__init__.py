"""Cakehalla: the rules engine behind the public contract (see engine-contract.md)."""

from games.engines.cakehalla.actions import apply_action
from games.engines.cakehalla.legal import legal_actions
from games.engines.cakehalla.setup import deal, new_game
from games.engines.cakehalla.shapes import Action, Result, Setup, StateData, View
from games.engines.cakehalla.state import dump, load
from games.engines.cakehalla.turn import active_seats, is_over, result
from games.engines.cakehalla.view import view
from games.engines.errors import IllegalAction

# Which rules a game was played under: stored with every game at its start. Bump it with any
# change that plays a stored game differently (the golden games in tests/ say when).
RULES_VERSION = 1

__all__ = [
    "Action",
    "IllegalAction",
    "RULES_VERSION",
    "Result",
    "Setup",
    "StateData",
    "View",
    "active_seats",
    "apply_action",
    "deal",
    "dump",
    "is_over",
    "legal_actions",
    "load",
    "new_game",
    "result",
    "view",
]
