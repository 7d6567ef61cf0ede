"""Lobby extras: "your move" cues on the board and in your games, and recently finished games."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from accounts.models import User
from games import services
from games.models import Game
from tests.conftest import client_for
from tests.support.finished_games import finished_game
from tests.support.finished_games import running_game as bot_game

# backend: the lobby's lists are SQL.
pytestmark = [pytest.mark.django_db, pytest.mark.backend]

LIVE_CUE = re.compile(r'id="board-live" hidden data-version="\d+" data-your-move="(yes|no)"')
LOBBY_MARK = 'data-your-move="yes">your move</strong>'


def cue(user: User | None, game: Game) -> str:
    """The your-move flag the table's live region shows this user."""
    page = client_for(user).get(game.get_absolute_url()).content.decode()
    found = LIVE_CUE.search(page)
    assert found is not None
    return found.group(1)


def first_legal(game: Game, user: User) -> dict:
    game.refresh_from_db()
    engine = game.spec.engine
    position = game.seats.get(user=user).position
    return engine.legal_actions(engine.load(game.snapshot), position)[0]


def test_the_board_says_your_move_until_you_pick(
    running_game: Game, player: User, rival: User, outsider: User
) -> None:
    assert cue(player, running_game) == "yes"
    assert cue(outsider, running_game) == "no"
    services.play(running_game, player, first_legal(running_game, player), None)
    assert cue(player, running_game) == "no"
    assert cue(rival, running_game) == "yes"


def test_the_board_cue_follows_the_turn_in_cakehalla(player: User, rival: User) -> None:
    game = bot_game([player, rival], "cakehalla")
    assert sorted([cue(player, game), cue(rival, game)]) == ["no", "yes"]


def test_a_resigned_seat_is_never_cued(running_game: Game, player: User) -> None:
    services.resign(running_game, player)
    assert cue(player, running_game) == "no"


def test_the_lobby_marks_your_games_that_wait_for_your_move(
    running_game: Game, player: User, rival: User
) -> None:
    services.create_game(player, "midnight-bakery", 3)
    lobby = client_for(player).get("/").content.decode()
    assert lobby.count(LOBBY_MARK) == 1
    services.play(running_game, player, first_legal(running_game, player), None)
    assert LOBBY_MARK not in client_for(player).get("/").content.decode()
    assert LOBBY_MARK in client_for(rival).get("/").content.decode()


def test_the_lobby_marks_only_the_seat_whose_turn_it_is(player: User, rival: User) -> None:
    game = bot_game([player, rival], "cakehalla")
    marks = [LOBBY_MARK in client_for(u).get("/").content.decode() for u in (player, rival)]
    assert sorted(marks) == [False, True]
    assert game.status == Game.Status.RUNNING


def lobby_queries(user: User) -> tuple[int, str]:
    """How many queries one lobby GET runs, and its page."""
    client = client_for(user)
    with CaptureQueriesContext(connection) as ctx:
        response = client.get("/")
    assert response.status_code == 200
    return len(ctx.captured_queries), response.content.decode()


def recent_section(page: str) -> str:
    return page.split('id="recently-finished"', 1)[1]


def test_the_lobby_lists_recently_finished_games_with_winner_and_replay(
    player: User, rival: User
) -> None:
    game = finished_game([player, rival])
    hidden = finished_game([player], private=True)
    winner = game.seats.filter(winner=True).order_by("position").first()
    assert winner is not None
    section = recent_section(lobby_queries(rival)[1])
    assert f"/games/{game.pk}/replay/" in section
    assert f"&#9733; {winner.user.username}" in section
    assert f"/games/{hidden.pk}/" not in section


def test_recently_finished_shows_the_last_ten(player: User) -> None:
    games = [finished_game([player], bots=1) for _ in range(11)]
    section = recent_section(lobby_queries(player)[1])
    assert f"/games/{games[0].pk}/replay/" not in section
    assert f"/games/{games[-1].pk}/replay/" in section
    assert section.count("/replay/") == 10


def test_recently_finished_costs_the_same_queries_for_one_or_four_games(
    player: User, rival: User
) -> None:
    finished_game([player, rival])
    one, _ = lobby_queries(rival)
    for _ in range(3):
        finished_game([player, rival], kind="cakehalla")
    four, page = lobby_queries(rival)
    assert recent_section(page).count("/replay/") == 4
    assert four == one


def test_each_game_offers_practice_and_rated_games_against_bots_by_name(player: User) -> None:
    lobby = client_for(player).get("/").content.decode()
    for name in ("Midnight Bakery", "Cakehalla"):
        assert f"Practice {name} against bots (unrated, with hints)" in lobby
        assert f"Rated {name} against bots" in lobby
    assert "Play a night against bots now" not in lobby


@pytest.mark.parametrize("kind", ["midnight-bakery", "cakehalla"])
def test_practice_against_bots_is_unrated_and_offers_hints(player: User, kind: str) -> None:
    client = client_for(player)
    client.post("/games/quick/", {"kind": kind, "practice": "yes"})
    client.post("/games/quick/", {"kind": kind})
    practice, rated = Game.objects.order_by("pk")
    assert (practice.rated, rated.rated) == (False, True)
    page = client.get(practice.get_absolute_url()).content.decode()
    assert "Suggest a move" in page and 'class="tag practice"' in client.get("/").content.decode()
    assert "Suggest a move" not in client.get(rated.get_absolute_url()).content.decode()
