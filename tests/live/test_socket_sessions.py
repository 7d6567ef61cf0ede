"""A socket belongs to a session: a new password closes it for good, a saved last login does not,
and a table's pushes check it. A log-out and a closed account: tests/live/test_socket_base.py."""

from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async

from accounts.models import User
from games.live import sessions
from games.models import Game
from tests.conftest import client_for
from tests.live.test_consumer import keep_first
from tests.support.sockets import (
    closed_with,
    next_output,
    next_version,
    open_board,
    session_of,
    socket,
    socket_of,
    stored_version,
)

pytestmark = pytest.mark.django_db(transaction=True)

SESSION_ENDED = 4401


async def test_a_new_password_closes_every_socket_of_that_person(
    running_game: Game, player: User, rival: User
) -> None:
    client = await database_sync_to_async(client_for)(player)
    mine = [socket_of(running_game, client), await socket(running_game, player)]
    theirs = await socket(running_game, rival)
    for ws in [*mine, theirs]:
        await open_board(ws)
    form = {
        "old_password": "a-long-baking-secret",
        "new_password1": "an-even-longer-baking-secret",
        "new_password2": "an-even-longer-baking-secret",
    }
    response = await database_sync_to_async(client.post)("/accounts/password/", form)
    assert response.status_code == 302
    for ws in mine:
        assert await closed_with(ws) == SESSION_ENDED
    await database_sync_to_async(keep_first)(running_game, rival)  # a sentinel change
    moved = await database_sync_to_async(stored_version)(running_game)
    assert await next_version(theirs) == moved  # still open, and nothing came before it
    await theirs.disconnect()


async def test_a_saved_last_login_leaves_the_socket_open(
    running_game: Game, player: User, rival: User
) -> None:
    ws = await socket(running_game, player)
    await open_board(ws)
    await database_sync_to_async(client_for)(player)
    await database_sync_to_async(keep_first)(running_game, rival)  # a sentinel change
    moved = await database_sync_to_async(stored_version)(running_game)
    assert await next_version(ws) == moved  # still open, and nothing came before it
    await ws.disconnect()


@pytest.mark.parametrize("ask", [False, True], ids=["next-move", "resync"])
async def test_an_ended_session_gets_nothing_more_even_if_the_close_was_lost(
    running_game: Game,
    player: User,
    rival: User,
    monkeypatch: pytest.MonkeyPatch,
    ask: bool,
    settings: Any,
) -> None:
    monkeypatch.setattr("games.live.sessions.send_to_group", lambda group, message: False)
    client = await database_sync_to_async(client_for)(player)
    ws = socket_of(running_game, client)
    await open_board(ws)
    await database_sync_to_async(client.post)("/accounts/logout/")
    # No yes is trusted any longer (as when time has moved on): the next push asks in full.
    settings.SOCKET_SESSION_RECHECK = 0
    if ask:
        await ws.send_to(text_data='{"type": "resync", "version": 0}')
    else:
        await database_sync_to_async(keep_first)(running_game, rival)
    assert await next_output(ws) == {"type": "websocket.close", "code": SESSION_ENDED}


async def test_a_session_that_still_holds_is_checked_again_and_pushes_go_on(
    running_game: Game, player: User, rival: User, settings: Any
) -> None:
    """The socket's handshake counts as the session's check; once that yes is no longer trusted,
    the next push reads the session again, finds it holding, and is sent."""
    ws = await socket(running_game, player)
    await open_board(ws)
    settings.SOCKET_SESSION_RECHECK = 0
    await database_sync_to_async(keep_first)(running_game, rival)
    moved = await database_sync_to_async(stored_version)(running_game)
    assert await next_version(ws) == moved
    await ws.disconnect()


@pytest.mark.django_db
def test_a_session_signed_with_a_fallback_key_still_holds(player: User, settings: Any) -> None:
    """A rotated SECRET_KEY keeps the sessions of its fallbacks, as Django's own log-in check."""
    key = session_of(player)
    settings.SECRET_KEY_FALLBACKS = [settings.SECRET_KEY]
    settings.SECRET_KEY = "a-new-secret-key-for-this-test-" + "x" * 30
    assert sessions.session_alive(key, player.pk)
    settings.SECRET_KEY_FALLBACKS = []
    assert not sessions.session_alive(key, player.pk)
