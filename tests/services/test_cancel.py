"""The host cancels an open table: it leaves the lobby and says so to everyone who looks."""

from __future__ import annotations

import pytest
from django.test import Client

from accounts.models import User
from games import services
from games.models import Game
from tests.conftest import client_for

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}


def test_the_host_sees_a_cancel_button_and_others_do_not(
    open_table: Game, player: User, outsider: User
) -> None:
    assert "Cancel the table" in client_for(player).get(open_table.get_absolute_url()).text
    assert "Cancel the table" not in client_for(outsider).get(open_table.get_absolute_url()).text


def test_a_cancelled_table_leaves_the_lobby_and_your_games(
    open_table: Game, player: User, rival: User
) -> None:
    services.join(open_table, rival)
    response = client_for(player).post(f"/games/{open_table.pk}/cancel/", headers=HTMX)
    assert response.status_code == 200
    open_table.refresh_from_db()
    assert open_table.status == Game.Status.CANCELLED
    for viewer in (Client(), client_for(player), client_for(rival)):
        assert open_table.get_absolute_url() not in viewer.get("/").text


def test_a_cancelled_table_says_so_and_offers_no_seat(
    open_table: Game, player: User, outsider: User
) -> None:
    services.cancel(open_table, player)
    body = client_for(outsider).get(open_table.get_absolute_url()).text
    assert "alice cancelled this table" in body
    assert "Take a seat" not in body and "/join/" not in body


def test_a_cancelled_table_refuses_a_join_with_the_reason(
    open_table: Game, player: User, outsider: User
) -> None:
    services.cancel(open_table, player)
    response = client_for(outsider).post(f"/games/{open_table.pk}/join/", headers=HTMX)
    assert response.status_code == 400
    assert "The host cancelled this table." in response.text
    assert open_table.seats.count() == 1


def test_a_started_table_cannot_be_cancelled(running_game: Game, player: User) -> None:
    with pytest.raises(services.ServiceError, match="already started"):
        services.cancel(running_game, player)


def test_a_finished_table_says_the_game_is_over(player: User, rival: User) -> None:
    from tests.support.finished_games import finished_game

    game = finished_game([player, rival])
    body = Client().get(game.get_absolute_url()).text
    assert "The night is over." in body
    assert "Replay the night" in body


def test_a_cancelled_table_leaves_the_profile_of_its_seated_players(
    open_table: Game, player: User, rival: User
) -> None:
    services.join(open_table, rival)
    assert open_table.get_absolute_url() in Client().get("/u/bob/").text
    services.cancel(open_table, player)
    assert open_table.get_absolute_url() not in Client().get("/u/bob/").text


def test_leaving_a_cancelled_table_says_it_was_cancelled(
    open_table: Game, player: User, rival: User
) -> None:
    services.join(open_table, rival)
    services.cancel(open_table, player)
    response = client_for(rival).post(f"/games/{open_table.pk}/leave/", headers=HTMX)
    assert response.status_code == 400
    assert "The host cancelled this table." in response.text
    assert open_table.seats.filter(user=rival).exists()
