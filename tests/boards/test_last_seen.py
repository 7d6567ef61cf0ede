"""Last seen: at a turn-based table a rival who is not here shows when they were last at one of
their tables' pages (their socket opened or closed), so a player can tell a rival who plays every
evening from one who has gone quiet. Live tables, bots and the viewer's own seat show none."""

from __future__ import annotations

import pytest

from accounts.models import User
from games import services
from games.boards import render_board
from games.services import clocks, presence
from tests.services.test_turn_based import turn_based
from tests.support.clock import Clock

pytestmark = pytest.mark.django_db

DAY = 86400.0


def test_opening_and_closing_a_tables_socket_is_when_a_person_was_last_seen(
    clock: Clock, player: User, rival: User
) -> None:
    game = turn_based([player, rival], "cakehalla")
    assert User.objects.get(pk=rival.pk).last_seen is None
    presence.opened("rival-tab", game.pk, rival.pk)
    assert User.objects.get(pk=rival.pk).last_seen == clock.at
    clock.forward(600)
    presence.closed("rival-tab", game.pk)
    assert User.objects.get(pk=rival.pk).last_seen == clock.at
    assert User.objects.get(pk=player.pk).last_seen is None  # nobody else's time moves


def test_a_turn_based_rival_who_left_shows_when_they_were_last_seen(
    clock: Clock, player: User, rival: User
) -> None:
    game = turn_based([player, rival], "cakehalla", bots=1)
    assert "seen " not in render_board(game, player)  # never seen: nothing to say
    presence.opened("rival-tab", game.pk, rival.pk)
    presence.opened("player-tab", game.pk, player.pk)
    clock.forward(3 * DAY)
    presence.closed("rival-tab", game.pk)
    left = f'<time datetime="{clock.at.isoformat()}" data-local="day">{clocks.day_words(clock.at)}'
    clock.forward(DAY)
    board = render_board(game, player)
    assert f"seen {left}</time>" in board  # written in the reader's zone by local-time.js
    assert board.count('class="last-seen') == 1  # not the viewer's own seat, nor the bot's


def test_a_live_table_shows_no_last_seen(clock: Clock, player: User, rival: User) -> None:
    game = services.create_game(player, "cakehalla", 2)
    services.join(game, rival)
    services.start(game, player)
    presence.opened("rival-tab", game.pk, rival.pk)
    presence.closed("rival-tab", game.pk)
    game.refresh_from_db()
    assert 'class="last-seen' not in render_board(game, player)
