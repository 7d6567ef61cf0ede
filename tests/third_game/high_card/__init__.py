"""High Card: each player is dealt two cards and, in seat order, plays one; the highest wins.

A whole engine behind the contract (../shared/engine-contract.md), and nothing more.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from games.engines import IllegalAction

MIN_PLAYERS = 2
MAX_PLAYERS = 4
HAND = 2
CARDS = tuple(range(1, 14))

State = dict[str, Any]
RULES_VERSION = 1


def deal(players: int, *, seed: int, options: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The setup the seed deals: every player's two cards."""
    return {"hands": new_game(players, seed=seed, options=options)["hands"]}


def new_game(
    players: int,
    *,
    seed: int,
    options: Mapping[str, Any] | None = None,
    setup: Mapping[str, Any] | None = None,
) -> State:
    """Deal two cards to each player from the seed (or the given setup's hands)."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise IllegalAction(f"High Card needs {MIN_PLAYERS} to {MAX_PLAYERS} players.")
    if options:
        raise IllegalAction("High Card has no options.")
    if setup is not None:
        hands = [list(hand) for hand in setup["hands"]]
    else:
        deck = list(CARDS)
        random.Random(seed).shuffle(deck)
        hands = [deck[HAND * i : HAND * (i + 1)] for i in range(players)]
    return {"hands": hands, "played": [None] * players, "turn": 0}


def active_seats(state: State) -> list[int]:
    """The one seat to play now; [] once every card is down."""
    return [] if is_over(state) else [state["turn"]]


def legal_actions(state: State, seat: int | None) -> list[dict[str, Any]]:
    """Play either card of the hand, on your turn."""
    if seat not in active_seats(state):
        return []
    return [{"type": "play", "card": card} for card in state["hands"][seat]]


def apply_action(state: State, seat: int, action: Mapping[str, Any]) -> State:
    """A new state with that card played and the turn passed on."""
    if action not in legal_actions(state, seat):
        raise IllegalAction("You cannot play that card now.")
    new = load(dump(state))
    new["hands"][seat].remove(action["card"])
    new["played"][seat] = action["card"]
    new["turn"] = seat + 1
    return new


def view(state: State, seat: int | None) -> dict[str, Any]:
    """Your own hand, every card played, and whose turn it is."""
    over = is_over(state)
    return {
        "game": "high-card",
        "turn": None if over else state["turn"],
        "hand": list(state["hands"][seat]) if seat is not None else [],
        "seats": [
            {"name": f"Player {i + 1}", "hand_count": len(hand), "played": state["played"][i]}
            for i, hand in enumerate(state["hands"])
        ],
        "over": over,
        "result": result(state) if over else None,
    }


def is_over(state: State) -> bool:
    """Whether every player has played."""
    return state["turn"] >= len(state["played"])


def result(state: State) -> dict[str, Any]:
    """The cards played as scores; the highest wins (ties share)."""
    if not is_over(state):
        raise IllegalAction("The game is not over yet.")
    best = max(state["played"])
    return {
        "scores": list(state["played"]),
        "winners": [i for i, card in enumerate(state["played"]) if card == best],
        "kept": [hand[0] for hand in state["hands"]],
    }


def dump(state: Mapping[str, Any]) -> State:
    """The state as JSON-ready data (a copy)."""
    return {
        "hands": [list(hand) for hand in state["hands"]],
        "played": list(state["played"]),
        "turn": state["turn"],
    }


def load(data: Mapping[str, Any]) -> State:
    """A state from dump()'s data (a copy)."""
    return dump(data)
