"""The menu's inbox badge moves live: a socket open at any table of the person's gets the inbox
link anew when a notification comes or is read."""

from __future__ import annotations

import re

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from accounts.models import User
from games import services
from games.events import invited
from games.groups import serve_here
from games.models import Game
from games.notifications import services as notifications
from tests.support.sockets import open_board, socket

pytestmark = pytest.mark.django_db(transaction=True)


async def next_badge(ws: WebsocketCommunicator) -> str:
    """The next inbox link the socket sends (other pushes are passed over)."""
    while True:
        html = await ws.receive_from()
        if 'id="inbox-link"' in html:
            return html


def unread_shown(html: str) -> int:
    """The unread count the inbox link shows (0 without a badge)."""
    found = re.search(r'<span id="inbox-badge" class="badge"[^>]*>(\d+)<', html)
    return int(found.group(1)) if found else 0


async def test_an_invitation_lights_the_badge_at_another_table_and_reading_clears_it(
    player: User, rival: User, running_game: Game
) -> None:
    serve_here()
    ws = await socket(running_game, rival)
    await open_board(ws)
    other = await database_sync_to_async(services.create_game)(player, "cakehalla", 2)
    await database_sync_to_async(invited.send)(Game, game_id=other.pk, by=player.pk, to=rival.pk)
    assert unread_shown(await next_badge(ws)) == 1

    await database_sync_to_async(notifications.mark_all_read)(rival)
    assert unread_shown(await next_badge(ws)) == 0
    await ws.disconnect()


async def test_someone_elses_notification_sends_this_socket_nothing(
    player: User, rival: User, outsider: User, running_game: Game
) -> None:
    serve_here()
    ws = await socket(running_game, rival)
    await open_board(ws)
    other = await database_sync_to_async(services.create_game)(player, "cakehalla", 2)
    await database_sync_to_async(invited.send)(Game, game_id=other.pk, by=player.pk, to=outsider.pk)
    await database_sync_to_async(invited.send)(Game, game_id=other.pk, by=player.pk, to=rival.pk)
    # The first badge this socket gets is its own person's, with their one notification.
    assert unread_shown(await next_badge(ws)) == 1
    await ws.disconnect()
