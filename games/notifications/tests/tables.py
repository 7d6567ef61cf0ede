"""Turn-based Cakehalla tables for the notification tests."""

from __future__ import annotations

from accounts.models import User
from games import services
from games.models import Game


def turn_based(people: list[User], kind: str = "cakehalla") -> Game:
    """A started turn-based (a day a move) table of these people, nobody has moved yet."""
    game = services.create_game(people[0], kind, len(people), pace=Game.Pace.DAY1)
    for user in people[1:]:
        services.join(game, user)
    services.start(game, people[0])
    game.refresh_from_db()
    return game


def whose_move(game: Game) -> User:
    """The person whose move it is at a started Cakehalla table."""
    game.refresh_from_db()
    engine = game.spec.engine
    (position,) = engine.active_seats(engine.load(game.snapshot))
    return game.seats.get(position=position).user


def move(game: Game) -> User:
    """The person whose move it is makes the first legal move; who moved."""
    mover = whose_move(game)
    engine = game.spec.engine
    state = engine.load(game.snapshot)
    position = game.seats.get(user=mover).position
    action = engine.legal_actions(state, position)[0]
    services.play(game, mover, action, None)
    return mover
