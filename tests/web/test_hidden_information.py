"""No page, public or staff, shows a running game's seed, snapshot or a fresh pick."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from accounts.models import User
from games import services
from games.models import Game
from tests.conftest import client_for
from tests.support.finished_games import finished_game

pytestmark = pytest.mark.django_db


def batch(game: Game, user: User) -> list[str]:
    engine = game.spec.engine
    position = game.seats.get(user=user).position
    return [c["id"] for c in engine.view(engine.load(game.snapshot), position)["batch"]]


def public_pages(game: Game, user: User) -> list[str]:
    return [
        "/",
        game.get_absolute_url(),
        f"/games/{game.pk}/board/?version=0",
        f"/games/{game.pk}/replay/",
        f"/games/{game.pk}/review/",
        f"/games/{game.pk}/review/0/",
        f"/games/{game.pk}/review/1/",
        "/games/history/",
        f"/u/{user.username}/",
        "/leaderboards/",
        "/stats/",
    ]


@pytest.fixture
def staff() -> User:
    return User.objects.create_superuser("root", password="a-long-admin-secret")


@pytest.fixture
def locked_pick(running_game: Game, player: User) -> str:
    """Alice locks a pick the rival must not learn before the reveal."""
    card = batch(running_game, player)[0]
    services.play(running_game, player, {"type": "keep", "card": card}, running_game.version)
    running_game.refresh_from_db()
    return card


def test_no_public_page_shows_the_seed_or_a_rivals_batch(
    running_game: Game, player: User, rival: User, outsider: User
) -> None:
    secrets = [str(running_game.seed), *batch(running_game, player), *batch(running_game, rival)]
    for viewer in (None, outsider):
        for url in public_pages(running_game, player):
            body = client_for(viewer).get(url).content.decode()
            assert not [s for s in secrets if s in body], url


def test_a_running_games_review_is_refused_and_shows_no_card(
    running_game: Game, player: User
) -> None:
    position = running_game.seats.get(user=player).position
    secrets = [str(running_game.seed), *batch(running_game, player)]
    response = client_for(player).post(f"/games/{running_game.pk}/review/{position}/ask/")
    body = response.content.decode()
    assert response.status_code == 400 and "once it is over" in body
    assert not [s for s in secrets if s in body]
    assert not running_game.reviews.exists()


def test_a_running_games_replay_is_404_and_shows_no_card(
    running_game: Game, player: User, outsider: User
) -> None:
    response = client_for(outsider).get(f"/games/{running_game.pk}/replay/")
    assert response.status_code == 404
    assert not [c for c in batch(running_game, player) if c in response.content.decode()]


def test_admin_hides_a_running_games_seed_and_snapshot(
    running_game: Game, player: User, staff: User
) -> None:
    body = client_for(staff).get(f"/admin/games/game/{running_game.pk}/change/").content.decode()
    assert "Hidden while the game runs" in body
    assert str(running_game.seed) not in body
    assert not [c for c in batch(running_game, player) if c in body]


def test_admin_hides_a_fresh_pick_in_the_action_log(
    running_game: Game, locked_pick: str, staff: User
) -> None:
    client = client_for(staff)
    listing = client.get("/admin/games/action/").content.decode()
    action = running_game.actions.get()
    detail = client.get(f"/admin/games/action/{action.pk}/change/").content.decode()
    for body in (listing, detail):
        assert locked_pick not in body
        assert "Hidden while the game runs" in body


def test_admin_shows_everything_once_the_game_is_over(
    player: User, rival: User, staff: User
) -> None:
    game = finished_game([player, rival])
    client = client_for(staff)
    body = client.get(f"/admin/games/game/{game.pk}/change/").content.decode()
    assert str(game.seed) in body and "Hidden while" not in body
    listing = client.get("/admin/games/action/").content.decode()
    first = game.actions.order_by("seq").first()
    assert first is not None
    assert json.dumps(first.payload).replace('"', "&quot;") in listing


def test_the_polling_board_of_a_spectator_shows_no_batch(
    running_game: Game, player: User, rival: User
) -> None:
    body = Client().get(f"/games/{running_game.pk}/board/", {"version": 0}).content.decode()
    assert not [c for c in batch(running_game, player) + batch(running_game, rival) if c in body]


def test_admin_cannot_edit_a_started_or_waiting_table(running_game: Game, staff: User) -> None:
    client = client_for(staff)
    waiting = services.create_game(staff, "midnight-bakery", 3)
    for game in (running_game, waiting):
        page = client.get(f"/admin/games/game/{game.pk}/change/").content.decode()
        assert not [f for f in ("status", "kind", "capacity", "options") if f'name="{f}"' in page]
