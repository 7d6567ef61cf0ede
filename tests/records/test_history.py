"""History, profiles, stats and admin: finished games browsed, filtered and paginated."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.test import Client
from django.utils import timezone

from accounts.models import Rating, User
from games.models import Game, Seat
from games.web.history import HISTORY_PAGE
from tests.conftest import client_for
from tests.support.finished_games import finished_game, running_game

# backend: filters and ordering are SQL.
pytestmark = [pytest.mark.django_db, pytest.mark.backend]


def over(host: User, kind: str = "midnight-bakery", **fields: object) -> Game:
    """A finished game row with the host placed first (no actions: for list tests only)."""
    game = Game.objects.create(
        kind=kind,
        host=host,
        capacity=2,
        status=Game.Status.OVER,
        finished_at=timezone.now(),
        **fields,
    )
    Seat.objects.create(game=game, user=host, position=0, score=40, place=1, winner=True)
    return game


def test_history_lists_finished_games_with_places_scores_and_winner(
    player: User, rival: User
) -> None:
    game = finished_game([player, rival], bots=0)
    still = running_game([player, rival])
    body = Client().get("/games/history/").content.decode()
    assert f'href="/games/{game.pk}/replay/"' in body
    assert f"/games/{still.pk}/" not in body
    for seat in game.seats.all():
        assert f'{seat.place}.</span> <a href="/u/{seat.user.username}/">' in body
        assert f'<span class="score">{seat.score}</span>' in body
    winner = game.seats.filter(winner=True).first()
    assert winner is not None and f"&#9733; {winner.user.username}" in body


def test_history_filters_by_game_and_by_player(player: User, rival: User) -> None:
    night, cake, theirs = over(player), over(player, "cakehalla"), over(rival)
    client = Client()
    by_game = client.get("/games/history/?game=cakehalla").content.decode()
    assert f"/games/{cake.pk}/replay/" in by_game and f"/games/{night.pk}/replay/" not in by_game
    by_player = client.get(f"/games/history/?player={rival.username}").content.decode()
    assert f"/games/{theirs.pk}/replay/" in by_player
    assert f"/games/{night.pk}/replay/" not in by_player
    nobody = client.get("/games/history/?player=nobody").content.decode()
    assert "No finished games match these filters yet." in nobody


def test_history_pages_keep_the_filters(player: User) -> None:
    games = [over(player) for _ in range(HISTORY_PAGE + 1)]
    over(player, "cakehalla")
    client = Client()
    first = client.get("/games/history/?game=midnight-bakery").content.decode()
    assert first.count("Replay</a>") == HISTORY_PAGE
    assert "Page 1 of 2" in first and "?game=midnight-bakery&amp;page=2" in first
    second = client.get("/games/history/?game=midnight-bakery&page=2", HTTP_HX_REQUEST="true")
    body = second.content.decode()
    assert body.lstrip().startswith('<div id="history-list">')
    assert body.count("Replay</a>") == 1 and f"/games/{games[0].pk}/replay/" in body


def test_private_games_stay_out_of_other_peoples_history(player: User, outsider: User) -> None:
    hidden = over(player, private=True)
    assert (
        f"/games/{hidden.pk}/" not in client_for(outsider).get("/games/history/").content.decode()
    )
    assert f"/games/{hidden.pk}/" in client_for(player).get("/games/history/").content.decode()


def test_profile_shows_ratings_and_recent_finished_games(player: User) -> None:
    game = finished_game([player])
    seat = game.seats.get(user=player)
    rating = Rating.objects.get(user=player, kind="midnight-bakery")
    body = Client().get(f"/u/{player.username}/").content.decode()
    assert "<h2>Ratings</h2>" in body and f"<strong>{rating.rating}</strong>" in body
    assert f'href="/games/{game.pk}/replay/"' in body
    assert f'<td class="num">{seat.score}</td>' in body
    assert f"<td>{seat.place} of 2" in body


def test_a_new_players_profile_says_not_rated_yet(outsider: User) -> None:
    body = Client().get(f"/u/{outsider.username}/").content.decode()
    assert "Not rated yet" in body and "No finished games yet." in body


def test_stats_counts_games_by_kind_running_players_and_the_week(player: User, rival: User) -> None:
    finished_game([player])
    running_game([player, rival])
    body = Client().get("/stats/").content.decode()
    assert "<b>1</b> game played" in body and "<b>1</b> running now" in body
    assert "<b>2</b> players" in body
    assert f'href="/u/{player.username}/">{player.username}</a>' in body


def test_stats_cost_a_fixed_handful_of_queries(
    player: User, django_assert_max_num_queries: Callable
) -> None:
    for _ in range(3):
        over(player)
    with django_assert_max_num_queries(8):
        Client().get("/stats/")


def test_nav_links_to_history_and_leaderboards() -> None:
    body = Client().get("/").content.decode()
    assert 'href="/games/history/"' in body and 'href="/leaderboards/"' in body


def test_admin_lists_ratings_and_links_a_finished_game_to_its_replay(player: User) -> None:
    game = finished_game([player])
    admin = User.objects.create_superuser("boss", password="a-long-baking-secret")
    client = client_for(admin)
    ratings = client.get("/admin/accounts/rating/?kind=midnight-bakery&q=alice")
    assert ratings.status_code == 200 and "alice" in ratings.content.decode()
    page = client.get(f"/admin/games/game/{game.pk}/change/").content.decode()
    assert f'href="/games/{game.pk}/replay/"' in page


@pytest.mark.django_db
@pytest.mark.parametrize("kind", ["midnight-bakery", "cakehalla"])
def test_the_export_is_a_click_away_on_the_finished_table_and_in_history(
    player: User, rival: User, kind: str
) -> None:
    game = finished_game([player, rival], kind=kind)
    export = f"/games/{game.pk}/export.json"
    assert export in client_for(player).get(f"/games/{game.pk}/").content.decode()
    assert export in Client().get("/games/history/").content.decode()
    assert client_for(player).get(export).status_code == 200
