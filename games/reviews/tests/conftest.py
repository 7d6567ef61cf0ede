"""The reviews' tests (games/reviews/): asking, the lane, the pages. They see the suite's shared
fixtures through the root conftest.py."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from django.test import override_settings

from accounts.models import User
from games import services
from games.models import Game
from games.reviews import lane
from games.reviews.models import Review
from tests.support.finished_games import finished_game, play_out


@pytest.fixture(autouse=True)
def _bots_inline_here(bots_inline: None, settings: Any) -> None:
    """Finished games are made through the services against bots, inline; a decision is weighed
    over a few played-out games only (the lane's logic, not the master's strength, is tested)."""
    settings.REVIEW_ITERATIONS_MIDNIGHT_BAKERY = 12
    settings.REVIEW_ITERATIONS_CAKEHALLA = 2


def work_whole(review: Review) -> Review:
    """Run the lane until the review is done (each run may stop at its deadline)."""
    with override_settings(REVIEW_RUN_SECONDS=60.0):
        for _ in range(50):
            lane.work_reviews()
            review.refresh_from_db()
            if review.status in (Review.Status.DONE, Review.Status.FAILED):
                return review
    raise AssertionError("the review was never finished")


@pytest.fixture
def night(player: User, rival: User) -> Game:
    """A finished two-baker night (with the owl) of two people, public."""
    return finished_game([player, rival], bots=0)


@pytest.fixture
def private_night(player: User, rival: User) -> Game:
    """A finished private two-baker night of two people."""
    return finished_game([player, rival], bots=0, private=True)


def position_of(game: Game, user: User) -> int:
    """The seat position a person sat at."""
    position = game.seats.get(user=user).position
    assert position is not None
    return position


def seeded_night(people: list[User], seed: int, choose: Callable[[dict, list[dict]], dict]) -> Game:
    """A finished night of these people alone (no bot), dealt from this seed; each keeps what
    `choose` says (a rule of its view, no randomness: the night is the same every run)."""
    game = services.create_game(people[0], "midnight-bakery", len(people))
    for person in people[1:]:
        services.join(game, person, game.invite)
    Game.objects.filter(pk=game.pk).update(seed=seed)
    game.refresh_from_db()
    services.start(game, people[0])

    def policy(spec: Any, view: dict, legal: list[dict], rng: random.Random) -> dict:
        return choose(view, legal)

    return play_out(game, people, policy)
