"""Cakehalla tables for the tests: a crafted deal, started through the services."""

from __future__ import annotations

from typing import Any, cast

from accounts.models import User
from games import services
from games.engines import cakehalla as engine
from games.engines.cakehalla.cards import CARDS
from games.models import Game

CUSTOMERS = ["pair-0", "trio-1", "pair-3"]


def tier_pile(tier: int, first: list[str]) -> list[str]:
    """A whole tier pile with the given cards on top, the rest in rules order."""
    rest = [c.id for c in CARDS if c.tier == tier and c.id not in first]
    return first + rest


SETUP = {
    "piles": {
        "1": tier_pile(1, ["1-sugar-7", "1-blueberry-7", "1-matcha-1", "1-cocoa-5", "1-cherry-3"]),
        "2": tier_pile(2, ["2-sugar-5", "2-cherry-1", "2-matcha-2", "2-cocoa-6"]),
        "3": tier_pile(3, ["3-sugar-2", "3-blueberry-1", "3-matcha-4", "3-cherry-3"]),
    },
    "customers": CUSTOMERS,
}


def start_with(game: Game, setup: dict[str, Any], state_change: Any = None) -> Game:
    """Start the table through the services, then deal the crafted setup (first seat to act)."""
    if game.status == Game.Status.OPEN:
        services.start(game, game.host)
    game.refresh_from_db()
    state = engine.new_game(game.seats.count(), seed=game.seed, setup=setup)
    if state_change is not None:
        state = state_change(state)
    game.snapshot = engine.dump(state)
    game.save(update_fields=["snapshot"])
    return game


def position(game: Game, user: User) -> int:
    seat = game.seats.get(user=user)
    assert seat.position is not None
    return seat.position


def user_at(game: Game, pos: int) -> User:
    return game.seats.get(position=pos).user


def state_of(game: Game) -> Any:
    game.refresh_from_db()
    assert game.snapshot is not None
    return engine.load(game.snapshot)


def play(game: Game, action: dict[str, Any]) -> None:
    """The seat whose turn it is plays the action through the services."""
    state = state_of(game)
    services.play(game, user_at(game, state.turn), action, game.version)


def two_baker_table(player: User, rival: User) -> Game:
    """A started two-baker table between player and rival, dealt from SETUP."""
    game = services.create_game(player, "cakehalla", 2)
    services.join(game, rival)
    return start_with(game, SETUP)


def load_with(state: Any, seat: int, **changes: Any) -> Any:
    """The state with one baker's fields replaced (tokens, discounts, points, reserved)."""
    data = cast(dict[str, Any], engine.dump(state))  # edited as plain JSON
    data["bakers"][seat].update(changes)
    return engine.load(data)
