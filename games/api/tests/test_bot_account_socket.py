"""A bot account's move sent on the table's socket (its person's browser session) is refused in
words and makes nothing: it plays through the API only (services.moves.play_posted)."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async

from accounts.models import User
from games.models import Game
from tests.live.test_socket_moves import keep_fields, message_of, send_move, stored
from tests.support.sockets import MADE, open_board, socket

pytestmark = pytest.mark.django_db(transaction=True)


def made_a_bot_account(user: User) -> None:
    user.plays_by_api = True
    user.save(update_fields=["plays_by_api"])


async def test_a_bot_accounts_move_on_the_socket_is_refused_in_words(
    running_game: Game, rival: User
) -> None:
    await database_sync_to_async(made_a_bot_account)(rival)
    ws = await socket(running_game, rival)
    await open_board(ws)
    fields = await database_sync_to_async(keep_fields)(running_game, rival)
    answer = await send_move(ws, fields)
    assert MADE.search(answer) is None
    assert "through the API only" in message_of(answer)
    assert await database_sync_to_async(stored)(running_game) == []
    await ws.disconnect()
