"""Cakehalla against bots through the same services: quick game, every level, simulate, replay."""

from __future__ import annotations

import random
from typing import cast

import pytest
from django.core.management import call_command

from accounts.models import User
from games import services
from games.engines import cakehalla as engine
from games.engines.cakehalla.state import State
from games.models import Game
from tests.conftest import client_for

pytestmark = pytest.mark.django_db


def play_out(game: Game, person: User, rng: random.Random) -> Game:
    """The person plays random legal moves through the services; the bots answer in each request."""
    for _ in range(1000):
        game.refresh_from_db()
        if game.status == Game.Status.OVER:
            return game
        assert game.snapshot is not None
        state = engine.load(game.snapshot)
        seat = game.seats.get(user=person).position
        assert seat is not None
        assert engine.active_seats(state) == [seat], "the bots left a turn unplayed"
        services.play(game, person, rng.choice(engine.legal_actions(state, seat)), game.version)
    raise AssertionError("the game did not end")


def test_the_lobby_offers_a_quick_cakehalla_game(player: User) -> None:
    body = client_for(player).get("/").content.decode()
    assert "Rated Cakehalla against bots" in body
    assert "Practice Cakehalla against bots (unrated, with hints)" in body
    assert "Rated Midnight Bakery against bots" in body


def test_the_quick_button_starts_cakehalla_against_two_greedy_bots(player: User) -> None:
    response = client_for(player).post("/games/quick/", {"kind": "cakehalla"})
    game = Game.objects.get()
    assert response.status_code == 302 and response["Location"] == game.get_absolute_url()
    assert (game.kind, game.status, game.capacity) == ("cakehalla", Game.Status.RUNNING, 3)
    assert sorted(game.seats.values_list("bot", flat=True)) == ["", "greedy", "greedy"]
    assert "Your bakery" in client_for(player).get(game.get_absolute_url()).content.decode()


def test_the_quick_button_refuses_an_unknown_game(player: User) -> None:
    response = client_for(player).post("/games/quick/", {"kind": "chess"})
    assert response.status_code == 400
    assert not Game.objects.exists()


def test_a_game_against_every_bot_level_ends_with_results_and_replays(player: User) -> None:
    game = services.create_game(player, "cakehalla", 4)
    for level in ("random", "greedy", "lookahead"):
        services.add_bot(game, player, level)
    services.start(game, player)
    game = play_out(game, player, random.Random(7))
    assert game.snapshot is not None
    result = engine.result(engine.load(game.snapshot))
    seats = list(game.seats.order_by("position"))
    assert [s.score for s in seats] == result["scores"]
    assert {s.position for s in seats if s.winner} == set(result["winners"])
    assert [s.breakdown for s in seats] == [{"cards_bought": n} for n in result["cards_bought"]]
    assert engine.dump(cast(State, services.replay(game))) == game.snapshot
    assert {a.bot for a in game.actions.exclude(bot="")} == {"random", "greedy", "lookahead"}


def test_a_finished_game_shows_its_standings_to_a_spectator(player: User) -> None:
    game = services.create_game(player, "cakehalla", 2)
    services.add_bot(game, player, "greedy")
    services.start(game, player)
    game = play_out(game, player, random.Random(3))
    body = client_for(None).get(game.get_absolute_url()).content.decode()
    assert "Final standings" in body and "&#9733; winner" in body
    assert "You are watching" in body


def test_simulate_plays_whole_cakehalla_games(capsys: pytest.CaptureFixture[str]) -> None:
    call_command("simulate", game="cakehalla", players=3, games=2, bots="random,greedy")
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 2 and all(line.startswith("game ") for line in lines)
    assert Game.objects.filter(kind="cakehalla", status=Game.Status.OVER).count() == 2
    for game in Game.objects.all():
        assert engine.dump(cast(State, services.replay(game))) == game.snapshot
