"""Telling a person their move: the lobby's badge, the table's icon and the optional sound."""

from __future__ import annotations

import re

import pytest

from accounts.models import User
from games import services
from games.models import Game
from tests.conftest import client_for
from tests.support.finished_games import finished_game
from tests.support.finished_games import running_game as bot_game

pytestmark = pytest.mark.django_db


def badge(html: str) -> int | None:
    found = re.search(r'id="waiting-badge"[^>]*>(\d+)<', html)
    return int(found.group(1)) if found else None


def waiting_on(user: User) -> int:
    """How many running games wait on this person's move, from the engines themselves."""
    count = 0
    for game in Game.objects.filter(seats__user=user, status=Game.Status.RUNNING):
        engine, position = game.spec.engine, game.seats.get(user=user).position
        count += position in engine.active_seats(engine.load(game.snapshot))
    return count


def test_the_lobby_counts_the_games_waiting_on_you(player: User, rival: User) -> None:
    first = bot_game([player, rival])  # Midnight Bakery: both pick at once
    bot_game([player, rival], "cakehalla")
    bot_game([rival, player], "cakehalla")
    waiting = waiting_on(player)
    assert waiting >= 1  # the night at least (whose turn a Cakehalla game starts on is drawn)
    lobby = client_for(player).get("/").content.decode()
    assert badge(lobby) == waiting
    assert f"<title>({waiting}) Lobby" in lobby
    # After alice picks, the night no longer waits on her.
    engine = first.spec.engine
    state = engine.load(first.snapshot)
    position = first.seats.get(user=player).position
    services.play(first, player, engine.legal_actions(state, position)[0], first.version)
    assert waiting_on(player) == waiting - 1
    assert badge(client_for(player).get("/").content.decode()) == (waiting - 1 or None)


def test_a_rematch_waiting_for_your_answer_counts_too(player: User, rival: User) -> None:
    old = finished_game([player, rival], "midnight-bakery", bots=1)
    services.rematch(old, player)
    assert badge(client_for(player).get("/").content.decode()) is None  # she said yes
    lobby = client_for(rival).get("/").content.decode()
    assert badge(lobby) == 1 and "rematch: your answer" in lobby


def test_no_badge_without_a_game_waiting(player: User) -> None:
    assert badge(client_for(player).get("/").content.decode()) is None


def test_the_move_sound_is_off_until_the_person_turns_it_on(
    running_game: Game, player: User
) -> None:
    client = client_for(player)
    table = client.get(f"/games/{running_game.pk}/").content.decode()
    assert 'data-sound="off"' in table and 'id="favicon"' in table
    assert 'src="/static/js/notify.js"' in table
    page = client.get("/accounts/settings/")
    assert page.status_code == 200 and "move_sound" in page.content.decode()
    assert client.post("/accounts/settings/", {"move_sound": "on"}).status_code == 302
    player.refresh_from_db()
    assert player.move_sound
    assert 'data-sound="on"' in client.get(f"/games/{running_game.pk}/").content.decode()
    assert client.post("/accounts/settings/", {}).status_code == 302
    player.refresh_from_db()
    assert not player.move_sound


def test_settings_need_a_log_in() -> None:
    response = client_for(None).get("/accounts/settings/")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
