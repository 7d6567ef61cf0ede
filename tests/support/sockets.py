"""A table's websocket as a test opens it: logged in through the session cookie."""

from __future__ import annotations

import re
from typing import Any

from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client
from django.utils import timezone

from accounts.models import User
from bakery_site.asgi import application
from games.models import Game
from games.services import presence
from tests.conftest import client_for

# How long a test waits for something the server must send: long, since a loaded machine (another
# suite beside this one) can take seconds; a passing test never waits it out.
PATIENCE = 30.0


class Communicator(WebsocketCommunicator):
    """Channels' test communicator, waiting on what must come as long as a loaded machine needs
    (its own default is one second). Checks that nothing comes keep their own short wait."""

    async def connect(self, timeout: float = PATIENCE) -> Any:
        return await super().connect(timeout)

    async def receive_from(self, timeout: float = PATIENCE) -> Any:
        return await super().receive_from(timeout)

    async def receive_output(self, timeout: float = PATIENCE) -> Any:
        return await super().receive_output(timeout)


def session_of(user: User) -> str:
    """A fresh session id of the user."""
    return client_for(user).cookies["sessionid"].value


def on_session(game: Game, session: str | None, origin: bytes) -> WebsocketCommunicator:
    """A communicator for the game's socket with this session cookie (none for None)."""
    headers = [(b"origin", origin)]
    if session is not None:
        headers.append((b"cookie", f"sessionid={session}".encode()))
    return Communicator(application, f"/ws/games/{game.pk}/", headers=headers)


async def socket(
    game: Game, user: User | None, origin: bytes = b"http://testserver"
) -> WebsocketCommunicator:
    """A communicator for the game's socket, logged in as the user (anonymous for None)."""
    session = None if user is None else await database_sync_to_async(session_of)(user)
    return on_session(game, session, origin)


def socket_of(game: Game, client: Client) -> WebsocketCommunicator:
    """A communicator for the game's socket in the test client's own session."""
    return on_session(game, client.cookies["sessionid"].value, b"http://testserver")


async def open_board(ws: WebsocketCommunicator) -> str:
    """Connect and return the whole board sent on connect."""
    connected, _ = await ws.connect()
    assert connected
    return await ws.receive_from()


MADE = re.compile(r'<template id="move-made" data-version="(\d+)">')  # a made move's answer


def answers_a_move(message: str) -> bool:
    """Whether a socket message is the answer to the page's own move: made, or refused in words
    (pushes of others' moves are not)."""
    return MADE.search(message) is not None or 'id="board-message"' in message


def shown_version(html: str) -> int | None:
    """The version in a push's #board-version input, if it carries one."""
    found = re.search(r'id="board-version" name="version" value="(\d+)"', html)
    return int(found.group(1)) if found else None


def stored_version(game: Game) -> int:
    """The table's version as stored now."""
    return int(Game.objects.values_list("version", flat=True).get(pk=game.pk))


async def next_version(ws: WebsocketCommunicator) -> int | None:
    """The version the very next push carries: after a change made on purpose (a sentinel), it
    must be that change's version, so nothing else came before it. The stand-in, where a version
    exists, for waiting a while to see that nothing arrives."""
    return shown_version(await ws.receive_from())


async def push_saying(ws: WebsocketCommunicator, words: str, most: int = 6) -> str:
    """The first of the next pushes that says these words: on a loaded machine a presence change
    or a redraw of the same region may come before it. Fails after `most` pushes without them."""
    seen = []
    for _ in range(most):
        html = await ws.receive_from()
        if words in html:
            return html
        seen.append(html[:200])
    raise AssertionError(f"{words!r} was in none of the next {most} pushes: {seen}")


async def closed_with(ws: WebsocketCommunicator, timeout: float = PATIENCE) -> Any:
    """The close code the socket gets next, after any pushes on their way; then the client goes."""
    while True:
        output = await ws.receive_output(timeout)
        if output["type"] == "websocket.close":
            await ws.disconnect(code=output.get("code", 1000))
            return output.get("code")


async def next_output(ws: WebsocketCommunicator) -> Any:
    """The next thing the server sends; the client goes if it was a close."""
    output = await ws.receive_output()
    if output["type"] == "websocket.close":
        await ws.disconnect(code=output.get("code", 1000))
    return output


def at_table(game: Game, user: User) -> str:
    """A socket row of this person at the table, as the consumer writes it; its channel."""
    channel = f"test!{game.pk}.{user.pk}.{timezone.now().timestamp()}"
    presence.opened(channel, game.pk, user.pk)
    return channel
