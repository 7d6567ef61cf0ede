"""Quick finished games for the history, replay, rating and leaderboard tests."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from accounts.models import User
from games import services
from games.models import Game

Policy = Callable[[Any, dict, list[dict], random.Random], dict]


def greedy(spec: Any, view: dict, legal: list[dict], rng: random.Random) -> dict:
    """The seat plays as the game's greedy bot would."""
    return spec.bots["greedy"](view, legal, rng)


def play_out(game: Game, people: list[User], policy: Policy = greedy, seed: int = 0) -> Game:
    """Let each seated person move by the policy until the game ends (bots answer by themselves)."""
    rng = random.Random(seed)
    engine = game.spec.engine
    for _ in range(2000):
        game.refresh_from_db()
        if game.status == Game.Status.OVER:
            return game
        state = engine.load(game.snapshot)
        for user in people:
            position = game.seats.get(user=user).position
            legal = engine.legal_actions(state, position)
            if legal:
                action = policy(game.spec, engine.view(state, position), legal, rng)
                services.play(game, user, action, None)
                break
    raise AssertionError("the game did not end")


def finished_game(
    people: list[User], kind: str = "midnight-bakery", bots: int = 1, private: bool = False
) -> Game:
    """A whole game of the people against greedy bots, the first person hosting."""
    host = people[0]
    game = services.create_game(host, kind, len(people) + bots, private=private)
    for user in people[1:]:
        services.join(game, user, game.invite)
    for _ in range(bots):
        services.add_bot(game, host, "greedy")
    services.start(game, host)
    return play_out(game, people)


def running_game(people: list[User], kind: str = "midnight-bakery") -> Game:
    """A started game of the people against one greedy bot, nobody has moved yet."""
    game = services.create_game(people[0], kind, len(people) + 1)
    for user in people[1:]:
        services.join(game, user)
    services.add_bot(game, people[0], "greedy")
    services.start(game, people[0])
    game.refresh_from_db()
    return game


def cakehalla_with_a_blind_reservation(person: User) -> Game:
    """A finished Cakehalla game against the greedy bot in which `person` once reserved a card
    blind from a pile (then played greedy)."""
    game = services.create_game(person, "cakehalla", 2)
    services.add_bot(game, person, "greedy")
    services.start(game, person)
    done: list[bool] = []

    def policy(spec: Any, view: dict, legal: list[dict], rng: random.Random) -> dict:
        blind = [a for a in legal if a["type"] == "reserve" and "tier" in a]
        if blind and not done:
            done.append(True)
            return blind[0]
        return greedy(spec, view, legal, rng)

    return play_out(game, [person], policy)


def play_to_first_results(game: Game) -> None:
    """Both bakers keep their first legal card until the first bake is scored."""
    engine = game.spec.engine
    while True:
        game.refresh_from_db()
        state = engine.load(game.snapshot)
        if engine.view(state, None)["bakes"]:
            return
        for position in engine.active_seats(state):
            user = game.seats.get(position=position).user
            legal = engine.legal_actions(state, position)
            if legal:
                services.play(game, user, legal[0], None)
                break
