"""People pressing at the same instant: every pick stored once, one reveal, never an error.

Runs on the database the suite is configured with: SQLite (a file, as `make run` uses) by default,
PostgreSQL when DATABASE_URL is set. Each person posts from their own thread through the real view,
the way eight browsers would.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import pytest
from django.db import connections
from django.test import Client
from django.urls import reverse

from accounts.models import User
from games import services
from games.models import Game
from tests.conftest import client_for

BAKERS = 8
ROUNDS = 50


@dataclass
class Post:
    """One person's post and what the site answered."""

    client: Client
    data: dict[str, str]
    status: int = 0
    body: str = ""
    error: str = ""


def at_once(game: Game, posts: Sequence[Post]) -> None:
    """Send every post from its own thread, all released by one barrier."""
    barrier = threading.Barrier(len(posts))
    url = reverse("games:play", args=[game.pk])

    def send(post: Post) -> None:
        try:
            barrier.wait(timeout=30)
            response = post.client.post(url, post.data, HTTP_HX_REQUEST="true")
            post.status, post.body = response.status_code, response.content.decode()
        except Exception as exc:  # the point of the test: nothing may raise
            post.error = f"{type(exc).__name__}: {exc}"
        finally:
            connections.close_all()

    threads = [threading.Thread(target=send, args=(post,)) for post in posts]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)


def night_for(people: Sequence[User]) -> Game:
    """A started Midnight Bakery night with these people and nobody else."""
    game = services.create_game(people[0], "midnight-bakery", len(people))
    for person in people[1:]:
        services.join(game, person)
    services.start(game, people[0])
    game.refresh_from_db()
    return game


def keep_post(game: Game, person: User, client: Client, pick: int = 0) -> Post:
    """The post the page makes when this person keeps a pastry of their batch."""
    seat = game.seats.get(user=person)
    assert seat.position is not None
    engine = game.spec.engine
    state = engine.load(game.snapshot)
    view = engine.view(state, seat.position)
    keeps = [a for a in engine.legal_actions(state, seat.position) if a["type"] == "keep"]
    return Post(
        client,
        {
            "action": json.dumps(keeps[pick % len(keeps)]),
            "version": str(game.version),
            "moment": game.spec.moment(view) or "",
        },
    )


def moment_of(game: Game) -> tuple[int, int]:
    """The bake and pick the night is at."""
    view = game.spec.engine.view(game.spec.engine.load(game.snapshot), None)
    return view["bake"], view["pick"]


@pytest.fixture
def bakers(make_user: Callable[[str], User]) -> list[User]:
    """Eight people who sit down together."""
    return [make_user(f"baker{i}") for i in range(BAKERS)]


@pytest.mark.xdist_group("simultaneous")
@pytest.mark.django_db(transaction=True)
def test_eight_bakers_lock_their_picks_in_the_same_instant(bakers: list[User]) -> None:
    clients = {person.pk: client_for(person) for person in bakers}
    game = night_for(bakers)
    for round_ in range(ROUNDS):
        if game.status != Game.Status.RUNNING:
            game = night_for(bakers)
        before = moment_of(game)
        actions, version = game.moves, game.version
        posts = [keep_post(game, p, clients[p.pk], round_) for p in bakers]
        at_once(game, posts)
        assert [p.error for p in posts] == [""] * BAKERS, f"round {round_}"
        assert [p.status for p in posts] == [200] * BAKERS, [p.body[:200] for p in posts]
        game.refresh_from_db()
        assert game.moves == actions + BAKERS
        assert game.actions.count() == game.moves
        assert game.version == version + BAKERS
        if game.status == Game.Status.RUNNING:
            bake, pick = before
            assert moment_of(game) in {(bake, pick + 1), (bake + 1, 1)}, "exactly one reveal"


@pytest.mark.xdist_group("simultaneous")
@pytest.mark.django_db(transaction=True)
def test_two_tabs_of_one_baker_store_one_pick_and_tell_the_other(player: User, rival: User) -> None:
    game = night_for([player, rival])
    for _ in range(10):
        moves = game.moves
        tabs = [keep_post(game, player, client_for(player), pick) for pick in (0, 1)]
        at_once(game, tabs)
        assert [t.error for t in tabs] == ["", ""]
        assert sorted(t.status for t in tabs) == [200, 400]
        told = next(t for t in tabs if t.status == 400)
        assert "already locked" in told.body
        game.refresh_from_db()
        assert game.moves == moves + 1
        answer = keep_post(game, rival, client_for(rival)).data["action"]
        services.play(game.pk, rival, json.loads(answer), None)
        game.refresh_from_db()
        if game.status != Game.Status.RUNNING:
            game = night_for([player, rival])
