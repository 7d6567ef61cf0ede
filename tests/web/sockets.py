"""A table's websocket as a test opens it: logged in through the session cookie."""

from __future__ import annotations

from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from accounts.models import User
from bakery_site.asgi import application
from games.models import Game
from tests.conftest import client_for


def session_of(user: User) -> str:
    """A fresh session id of the user."""
    return client_for(user).cookies["sessionid"].value


async def socket(
    game: Game, user: User | None, origin: bytes = b"http://testserver"
) -> WebsocketCommunicator:
    """A communicator for the game's socket, logged in as the user (anonymous for None)."""
    headers = [(b"origin", origin)]
    if user is not None:
        session = await database_sync_to_async(session_of)(user)
        headers.append((b"cookie", f"sessionid={session}".encode()))
    return WebsocketCommunicator(application, f"/ws/games/{game.pk}/", headers=headers)
