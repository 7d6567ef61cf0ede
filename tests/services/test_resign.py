"""Resigning: a house bot plays the seat to the end, and the resigner is placed last."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pytest

from accounts.models import Rating, User
from accounts.ratings import ranks
from games import services
from games.models import Action, Game
from games.records.archive import placings
from tests.conftest import client_for
from tests.support.finished_games import finished_game, play_out
from tests.support.finished_games import running_game as bot_game

pytestmark = pytest.mark.django_db


@dataclass
class Placing:
    """A seat as rating reads it."""

    user_id: int
    place: int | None
    resigned: bool
    winner: bool = False


def test_resign_hands_the_seat_to_a_house_bot(running_game: Game, player: User) -> None:
    before = running_game.version
    services.resign(running_game, player)
    seat = running_game.seats.get(user=player)
    running_game.refresh_from_db()
    assert seat.resigned and seat.bot == "greedy"
    assert running_game.version > before


def test_resign_and_each_bot_move_after_it_are_announced_on_commit(
    running_game: Game, player: User, django_capture_on_commit_callbacks: Callable
) -> None:
    moves = running_game.moves
    with django_capture_on_commit_callbacks() as callbacks:
        services.resign(running_game, player)
    running_game.refresh_from_db()
    assert running_game.moves > moves
    assert len(callbacks) == 1 + running_game.moves - moves


def test_the_house_bot_moves_for_the_resigned_seat(running_game: Game, player: User) -> None:
    services.resign(running_game, player)
    moves = Action.objects.filter(game=running_game, user=player)
    assert moves.exists()
    assert set(moves.values_list("bot", flat=True)) == {"greedy"}


@pytest.mark.parametrize("kind", ["midnight-bakery", "cakehalla"])
def test_bots_finish_the_game_when_everyone_resigns(player: User, rival: User, kind: str) -> None:
    game = bot_game([player, rival], kind)
    services.resign(game, player)
    services.resign(game, rival)
    game.refresh_from_db()
    assert game.status == Game.Status.OVER
    assert game.spec.engine.dump(services.replay(game)) == game.snapshot


def test_cannot_resign_twice(running_game: Game, player: User) -> None:
    services.resign(running_game, player)
    with pytest.raises(services.ServiceError, match="already resigned"):
        services.resign(running_game, player)


def test_cannot_resign_when_not_seated(running_game: Game, outsider: User) -> None:
    with pytest.raises(services.NotAllowed):
        services.resign(running_game, outsider)


def test_cannot_resign_before_the_start(open_table: Game, player: User) -> None:
    with pytest.raises(services.ServiceError, match="not started"):
        services.resign(open_table, player)


def test_cannot_resign_when_the_game_is_over(player: User) -> None:
    game = finished_game([player])
    with pytest.raises(services.ServiceError, match="over"):
        services.resign(game, player)


def test_a_resigned_player_cannot_play(running_game: Game, player: User, rival: User) -> None:
    services.resign(running_game, player)
    running_game.refresh_from_db()
    engine = running_game.spec.engine
    state = engine.load(running_game.snapshot)
    position = running_game.seats.get(user=rival).position
    legal = engine.legal_actions(state, position)
    with pytest.raises(services.NotAllowed, match="resigned"):
        services.play(running_game, player, legal[0], running_game.version)


def test_the_resigner_is_placed_last_and_rated_last(player: User, rival: User) -> None:
    game = bot_game([player, rival])
    services.resign(game, player)
    play_out(game, [rival])
    seats = {s.user_id: s for s in game.seats.all()}
    assert seats[player.pk].place == 3 and not seats[player.pk].winner
    assert sorted(s.place or 0 for uid, s in seats.items() if uid != player.pk) in ([1, 2], [1, 1])
    assert any(s.winner for s in seats.values())
    rating = {r.user_id: r.rating for r in Rating.objects.filter(kind=game.kind)}
    assert rating[player.pk] < min(v for uid, v in rating.items() if uid != player.pk)


def test_placings_put_the_resigned_last_and_keep_the_others_order() -> None:
    places, winners = placings([30, 20, 25, 10], {0}, {0})
    assert places == [4, 2, 1, 3]
    assert winners == {2}


def test_placings_without_resignations_follow_the_engine() -> None:
    places, winners = placings([20, 20, 5], {1}, set())
    assert places == [2, 1, 3]
    assert winners == {1}


def test_ratings_rank_a_resigned_seat_below_everyone() -> None:
    seats = [Placing(1, 1, True), Placing(2, 2, False), Placing(3, 3, False)]
    assert ranks(seats) == [4.0, 2.0, 3.0]


def test_resign_is_post_only(running_game: Game, player: User) -> None:
    response = client_for(player).get(f"/games/{running_game.pk}/resign/")
    assert response.status_code == 405
    assert not running_game.seats.get(user=player).resigned


def test_a_resign_post_needs_its_confirm_step(running_game: Game, player: User) -> None:
    response = client_for(player).post(f"/games/{running_game.pk}/resign/")
    assert response.status_code == 400
    assert not running_game.seats.get(user=player).resigned


def test_the_table_offers_resign_and_then_says_resigned(
    running_game: Game, player: User, rival: User
) -> None:
    client = client_for(player)
    url = running_game.get_absolute_url()
    assert "Yes, resign this game" in client.get(url).content.decode()
    response = client.post(f"/games/{running_game.pk}/resign/", {"confirm": "yes"})
    assert response.status_code == 302
    mine = client.get(url).content.decode()
    assert "You resigned" in mine and "Yes, resign this game" not in mine
    assert '<span class="tag">resigned</span>' in client_for(rival).get(url).content.decode()


def test_the_final_results_say_resigned(player: User, rival: User) -> None:
    game = bot_game([player, rival], "cakehalla")
    services.resign(game, player)
    play_out(game, [rival])
    page = client_for(rival).get(game.get_absolute_url()).content.decode()
    assert "Final standings" in page
    assert '<span class="tag">resigned</span>' in page
    history = client_for(rival).get("/games/history/").content.decode()
    assert '<span class="tag">resigned</span>' in history
