"""Bots at the table: they answer after each change, each move its own Action row."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.test import Client

from accounts.models import User
from games import services
from games.models import Action, Game
from tests.conftest import client_for

pytestmark = pytest.mark.django_db


def test_bots_lock_their_picks_as_soon_as_the_night_starts(open_table: Game, player: User) -> None:
    services.add_bot(open_table, player, "greedy")
    services.start(open_table, player)
    open_table.refresh_from_db()
    bot_rows = Action.objects.filter(game=open_table).exclude(bot="")
    assert bot_rows.count() == 1
    bot_user = bot_rows.get().user
    assert bot_user is not None and bot_user.is_bot
    engine = open_table.spec.engine
    state = engine.load(open_table.snapshot)
    human = open_table.seats.get(user=player).position
    assert engine.active_seats(state) == [human]


def test_a_night_against_bots_replays_from_its_action_rows(player: User) -> None:
    game = services.create_game(player, "midnight-bakery", 3)
    services.add_bot(game, player, "greedy")
    services.add_bot(game, player, "random")
    services.start(game, player)
    engine = game.spec.engine
    position = game.seats.get(user=player).position
    while True:
        game.refresh_from_db()
        if game.status == Game.Status.OVER:
            break
        state = engine.load(game.snapshot)
        legal = engine.legal_actions(state, position)
        services.play(game, player, legal[-1], game.version)
    assert engine.dump(services.replay(game)) == game.snapshot
    assert game.seats.filter(place=1).exists()
    assert {a.bot for a in game.actions.all()} == {"", "greedy", "random"}


def test_the_quick_night_button_starts_a_night_against_two_bots(player: User) -> None:
    response = client_for(player).post("/games/quick/")
    game = Game.objects.get()
    assert response.status_code == 302 and response["Location"] == game.get_absolute_url()
    assert game.status == Game.Status.RUNNING
    assert game.seats.exclude(bot="").count() == 2


def test_simulate_plays_whole_nights_between_bot_accounts(capsys: pytest.CaptureFixture) -> None:
    call_command("simulate", "--game", "midnight-bakery", "--players", "3", "--games", "2")
    games = Game.objects.filter(kind="midnight-bakery")
    assert games.count() == 2
    assert all(g.status == Game.Status.OVER for g in games)
    assert all(s.user.is_bot and s.score is not None for g in games for s in g.seats.all())
    assert "game " in capsys.readouterr().out


def test_a_finished_night_shows_its_results_to_a_spectator() -> None:
    call_command("simulate", "--players", "2", "--games", "1", "--bots", "greedy,random")
    game = Game.objects.get()
    body = Client().get(game.get_absolute_url()).content.decode()
    assert "The night&#x27;s results" in body or "The night's results" in body
    assert "winner" in body
