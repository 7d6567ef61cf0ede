"""Cakehalla: the rules engine behind the public contract (see engine-contract.md)."""

from games.engines.cakehalla.actions import apply_action
from games.engines.cakehalla.legal import legal_actions
from games.engines.cakehalla.setup import RULES_VERSION, deal, new_game
from games.engines.cakehalla.shapes import Action, Result, Setup, StateData, View
from games.engines.cakehalla.state import dump, load
from games.engines.cakehalla.turn import active_seats, is_over, result
from games.engines.cakehalla.view import view
from games.engines.errors import IllegalAction

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
