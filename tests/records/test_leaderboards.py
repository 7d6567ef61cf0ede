"""Leaderboards: people ranked by rating per game, bots on request, paginated."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from accounts import leaderboards
from accounts.models import MIN_RANKED_GAMES, RANKED_RECENT_DAYS, Rating, User
from accounts.ratings import display
from tests.support.finished_games import finished_game

# backend: ranking and ties are ordered in SQL.
pytestmark = [pytest.mark.django_db, pytest.mark.backend]


def rated(
    name: str,
    ordinal: float,
    *,
    games: int = 5,
    wins: int = 1,
    bot: bool = False,
    days_ago: float = 1,
) -> User:
    user = User.objects.create_user(username=name, is_bot=bot)
    Rating.objects.create(
        last_played_at=timezone.now() - timedelta(days=days_ago),
        user=user,
        kind="midnight-bakery",
        mu=ordinal + 6,
        sigma=2,
        ordinal=ordinal,
        rating=display(ordinal),
        games=games,
        wins=wins,
    )
    return user


def test_people_only_by_default_bots_on_the_toggle(player: User) -> None:
    for _ in range(MIN_RANKED_GAMES):
        finished_game([player])
    client = Client()
    people = client.get("/leaderboards/midnight-bakery/").content.decode()
    assert 'href="/u/alice/">alice</a>' in people and "greedy-bot-1" not in people
    both = client.get("/leaderboards/midnight-bakery/?bots=1").content.decode()
    assert (
        "alice" in both and 'href="/u/greedy-bot-1/">greedy-bot-1</a> <span class="tag">bot' in both
    )
    index = client.get("/leaderboards/").content.decode()
    assert "alice" in index and "greedy-bot-1" not in index and "Include bots" in index


def test_rows_show_rank_rating_games_wins_and_win_percent() -> None:
    rated("strong", 10.0, games=8, wins=6)
    rated("weak", -2.0, games=5, wins=0)
    body = Client().get("/leaderboards/midnight-bakery/").content.decode()
    assert body.index("strong") < body.index("weak")
    assert f"<strong>{display(10.0)}</strong>" in body and '<td class="num">75%</td>' in body
    assert '<td class="rank">1</td>' in body and '<td class="rank">2</td>' in body


def test_only_players_with_a_finished_game_appear() -> None:
    rated("fresh", 50.0, games=0, wins=0)
    rated("veteran", 1.0)
    body = Client().get("/leaderboards/midnight-bakery/").content.decode()
    assert "veteran" in body and "fresh" not in body


def test_the_board_is_paginated_and_ranks_run_on() -> None:
    size = leaderboards.PAGE_SIZE
    for i in range(size + 2):
        rated(f"baker{i:02d}", 100.0 - i)
    client = Client()
    first = client.get("/leaderboards/midnight-bakery/").content.decode()
    assert first.count('<td class="rank">') == size and "Page 1 of 2" in first
    second = client.get("/leaderboards/midnight-bakery/?page=2", HTTP_HX_REQUEST="true")
    body = second.content.decode()
    assert body.lstrip().startswith('<div id="leaderboard">')
    assert f'<td class="rank">{size + 1}</td>' in body and f"baker{size + 1:02d}" in body
    assert body.count('<td class="rank">') == 2


def test_the_bots_toggle_survives_pagination() -> None:
    for i in range(leaderboards.PAGE_SIZE + 1):
        rated(f"bot{i:02d}", 50.0 - i, bot=True)
    body = Client().get("/leaderboards/midnight-bakery/?bots=1").content.decode()
    assert "?bots=1&amp;page=2" in body
    assert "Nobody is on the" in Client().get("/leaderboards/midnight-bakery/").content.decode()


def test_an_unknown_game_has_no_leaderboard() -> None:
    assert Client().get("/leaderboards/chess/").status_code == 404


def test_equal_ratings_share_a_rank_and_the_next_rank_skips() -> None:
    rated("first", 10.0)
    rated("tied-a", 5.0)
    rated("tied-b", 5.0)
    rated("last", 1.0)
    for url in ("/leaderboards/midnight-bakery/", "/leaderboards/"):
        body = Client().get(url).content.decode()
        ranks = [int(part.split("<")[0]) for part in body.split('<td class="rank">')[1:]]
        assert ranks == [1, 2, 2, 4], url


def test_a_tie_across_pages_keeps_its_rank_on_the_next_page() -> None:
    size = leaderboards.PAGE_SIZE
    for i in range(size - 1):
        rated(f"baker{i:02d}", 100.0 - i)
    rated("tied-a", 1.0)
    rated("tied-b", 1.0)
    body = Client().get("/leaderboards/midnight-bakery/?page=2").content.decode()
    assert f'<td class="rank">{size}</td>' in body
    assert f'<td class="rank">{size + 1}</td>' not in body


def test_only_five_rated_games_and_one_in_the_last_thirty_days_make_the_board() -> None:
    rated("steady", 1.0, games=MIN_RANKED_GAMES, days_ago=RANKED_RECENT_DAYS - 1)
    rated("newcomer", 40.0, games=MIN_RANKED_GAMES - 1)
    rated("camper", 60.0, games=200, days_ago=RANKED_RECENT_DAYS + 1)
    for url in ("/leaderboards/midnight-bakery/", "/leaderboards/"):
        body = Client().get(url).content.decode()
        assert "steady" in body and "newcomer" not in body and "camper" not in body, url
    # Their profiles still show the rating, marked for why it is not listed.
    newcomer = Client().get("/u/newcomer/").content.decode()
    assert f"<strong>{display(40.0)}</strong>" in newcomer and "provisional" in newcomer
    camper = Client().get("/u/camper/").content.decode()
    assert f"<strong>{display(60.0)}</strong>" in camper and "off the leaderboard" in camper
    steady = Client().get("/u/steady/").content.decode()
    assert "provisional" not in steady.split("<tbody>")[1].split("</tbody>")[0]


def test_a_finished_game_dates_the_rating_and_rerating_keeps_the_games_end(
    player: User, rival: User
) -> None:
    from games.models import Game
    from games.records.ratings import rerate

    game = finished_game([player, rival])
    Game.objects.filter(pk=game.pk).update(finished_at=timezone.now() - timedelta(days=40))
    rerate()
    row = Rating.objects.get(user=player)
    assert row.games == 1 and row.resting
    assert row.last_played_at == Game.objects.get(pk=game.pk).finished_at
