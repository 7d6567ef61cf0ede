"""Admin shows games, seats and ratings, and changes none of them behind the services' back."""

from __future__ import annotations

import pytest
from django.test import Client

from accounts.models import User
from games.models import Game, Seat
from tests.conftest import client_for
from tests.support.finished_games import finished_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(db: None) -> Client:
    """The admin test client of a superuser."""
    boss = User.objects.create_superuser(username="boss", password="a-long-baking-secret")
    return client_for(boss)


def test_a_running_games_seat_page_is_read_only(staff: Client, running_game: Game) -> None:
    seat = running_game.seats.get(user=running_game.host)
    page = staff.get(f"/admin/games/seat/{seat.pk}/change/")
    assert page.status_code == 200
    html = page.content.decode()
    assert 'name="bot"' not in html and 'name="user"' not in html and 'name="_save"' not in html


def test_posting_a_seat_change_changes_nothing(staff: Client, running_game: Game) -> None:
    seat = running_game.seats.get(user=running_game.host)
    before = (seat.user_id, seat.bot, seat.position)
    response = staff.post(
        f"/admin/games/seat/{seat.pk}/change/",
        {"game": running_game.pk, "user": seat.user_id, "bot": "greedy", "position": 1},
    )
    assert response.status_code == 403
    seat.refresh_from_db()
    assert (seat.user_id, seat.bot, seat.position) == before


def test_seats_cannot_be_added_or_deleted_in_admin(staff: Client, running_game: Game) -> None:
    seat = running_game.seats.get(user=running_game.host)
    assert staff.get("/admin/games/seat/add/").status_code == 403
    assert staff.post(f"/admin/games/seat/{seat.pk}/delete/", {"post": "yes"}).status_code == 403
    assert Seat.objects.filter(pk=seat.pk).exists()


@pytest.mark.parametrize("fixture", ["open_table", "running_game"])
def test_a_live_tables_settings_cannot_be_changed(
    staff: Client, fixture: str, request: pytest.FixtureRequest
) -> None:
    game: Game = request.getfixturevalue(fixture)
    before = (game.kind, game.host_id, game.status, game.capacity, game.version)
    response = staff.post(
        f"/admin/games/game/{game.pk}/change/",
        {"kind": "cakehalla", "host": game.host_id, "status": "over", "capacity": 4},
    )
    assert response.status_code == 403
    game.refresh_from_db()
    assert (game.kind, game.host_id, game.status, game.capacity, game.version) == before
    page = staff.get(f"/admin/games/game/{game.pk}/change/").content.decode()
    assert 'name="status"' not in page and 'name="capacity"' not in page
    assert 'name="seats-0-bot"' not in page and 'name="seats-__prefix__-user"' not in page


@pytest.mark.parametrize("fixture", ["open_table", "running_game"])
def test_a_live_tables_seed_is_hidden(
    staff: Client, fixture: str, request: pytest.FixtureRequest
) -> None:
    game: Game = request.getfixturevalue(fixture)
    page = staff.get(f"/admin/games/game/{game.pk}/change/")
    assert page.status_code == 200
    html = page.content.decode()
    assert str(game.seed) not in html
    assert "Hidden while the game runs or waits to start" in html


def test_a_finished_games_seed_is_shown(staff: Client, player: User) -> None:
    game = finished_game([player])
    html = staff.get(f"/admin/games/game/{game.pk}/change/").content.decode()
    assert str(game.seed) in html and "replay" in html


def test_admin_lists_still_search_and_filter(staff: Client, running_game: Game) -> None:
    games = staff.get("/admin/games/game/", {"q": "alice", "status__exact": "running"})
    seats = staff.get("/admin/games/seat/", {"q": "bob", "game__status": "running"})
    assert games.status_code == seats.status_code == 200
    assert f"/admin/games/game/{running_game.pk}/change/" in games.content.decode()
    assert "bob" in seats.content.decode()


def test_task_results_are_for_superusers_not_moderators(staff: Client, moderator: User) -> None:
    """The mail queue's results (failed mails, their tracebacks) are the operators' business."""
    results = "/admin/django_tasks_database/dbtaskresult/"
    assert staff.get(results).status_code == 200
    assert client_for(moderator).get(results).status_code == 403
    assert "dbtaskresult" not in client_for(moderator).get("/admin/").content.decode()
