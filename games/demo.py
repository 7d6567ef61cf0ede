"""Demo data for a new site: a few demo bakers and finished games of both kinds.

Every game is made through the services, as people make them: a demo baker hosts, the others
join (a house bot sometimes fills a seat), the host starts, and each demo baker's move is chosen
by the greedy bot from that baker's own view and posted with services.play. So history,
replays, ratings, leaderboards and the stats' counters are all real.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from django.contrib.auth.hashers import make_password
from django.db import transaction

from accounts.models import User
from games import catalog, services
from games.models import Game

DEMO_BAKERS = ("demo_brioche", "demo_marzipan", "demo_crumpet", "demo_strudel")
MOVES_PER_GAME = 3000


def demo_bakers() -> list[User]:
    """The demo accounts (people on the boards, with no password anyone can log in with)."""
    out = []
    for name in DEMO_BAKERS:
        user, _ = User.objects.get_or_create(
            username=name, defaults={"password": make_password(None)}
        )
        out.append(user)
    return out


def play_through(game: Game, rng: random.Random) -> Game:
    """Every demo baker moves as the greedy bot would until the game ends (bots answer)."""
    engine = game.spec.engine
    choose = game.spec.bots["greedy"]
    for _ in range(MOVES_PER_GAME):
        services.run_bots(game.pk)
        game.refresh_from_db()
        if game.status != Game.Status.RUNNING:
            return game
        state = engine.load(game.snapshot)
        seats = services.seated(game)
        for position in engine.active_seats(state):
            seat = seats.get(position)
            legal = engine.legal_actions(state, position)
            if seat is not None and not seat.bot and legal:
                action = choose(engine.view(state, position), legal, rng)
                services.play(game, seat.user, action, game.version)
                break
    raise RuntimeError(f"Demo game {game.pk} did not end.")


def demo_game(kind: str, bakers: list[User], n: int, rng: random.Random) -> Game:
    """The n-th finished game of this kind: three demo bakers (one sits out in turn), or two
    for every game the kind asks it of (demo_two_every), sometimes with a house bot."""
    spec = catalog.get(kind)
    people = [b for i, b in enumerate(bakers) if i != n % len(bakers)]
    every = spec.demo_two_every
    if every and n % every == 0:
        first = n // every
        people = [bakers[first % len(bakers)], bakers[(first + 1) % len(bakers)]]
    rng.shuffle(people)
    bots = 1 if rng.random() < 0.4 and len(people) < spec.max_players else 0
    game = services.create_game(people[0], kind, len(people) + bots)
    for user in people[1:]:
        services.join(game, user)
    for _ in range(bots):
        services.add_bot(game, people[0], "greedy")
    services.start(game, people[0])
    return play_through(game, rng)


@transaction.atomic
def make_demo(
    games_per_kind: int = 8, seed: int = 1, say: Callable[[str], None] = lambda _: None
) -> list[Game]:
    """Finished games of every game on offer, alternating kinds; returns them.

    One transaction: all or nothing, and one write to disk instead of one per move.
    """
    rng = random.Random(seed)
    bakers = demo_bakers()
    games = []
    for n in range(games_per_kind):
        for spec in catalog.available():
            game = demo_game(spec.slug, bakers, n, rng)
            games.append(game)
            say(f"{spec.name} #{game.pk} ({n + 1}/{games_per_kind}) finished")
    return games
