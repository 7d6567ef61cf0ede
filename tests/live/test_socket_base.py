"""The socket's life, once for every socket of the site (games/live/socket.py), on a tiny socket
that declares only a group, an access check and a handler: its session's end, its caps, the
layer's loss and return, the drain's 3012, the database away, and what it closes on.

The caps of each real route (a table, the waiting page, a tournament) are opened past in
test_socket_caps.py; what each socket adds is tested with it (test_consumer.py,
games/pairing/tests/test_live.py, games/tournaments/tests/test_live.py)."""

from __future__ import annotations

import asyncio

import pytest
from channels.auth import AuthMiddlewareStack
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from channels.routing import URLRouter
from django.db import OperationalError
from django.test import Client
from django.urls import path

from accounts.models import User
from games.groups import send_to_group, user_group
from games.live import caps, drain
from games.live.protocol import (
    DATABASE_AWAY,
    NOT_FOUND,
    SERVICE_RESTART,
    TABS_AT_TABLE,
    TOO_MANY,
)
from games.live.sessions import ACCOUNT_CLOSED, SESSION_ENDED
from games.live.socket import Socket
from games.models import TableSocket
from games.outages import HandshakeGuard
from tests.conftest import client_for
from tests.support.sockets import Communicator, closed_with

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("fresh_drain")]

GROUP = "tiny-page"


class Tiny(Socket):
    """A socket that declares only what is its own: a group, an access check, a handler, a
    beat, and what it sends on opening and after a rejoin. ?refuse=1 is refused (4404);
    ?away=1 meets the database away in its check; ?beat=1 beats."""

    beats: int = 0

    def asked(self) -> None:
        self.query = self.scope.get("query_string", b"").decode()

    def page_groups(self) -> list[str]:
        return [GROUP]

    async def check(self) -> int | None:
        if "away=1" in self.query:
            raise OperationalError("the database restarts")
        return NOT_FOUND if "refuse=1" in self.query else None

    def place(self) -> str:
        return "tiny"

    async def opened(self) -> None:
        await self.send_html("opened")

    def beat_seconds(self) -> float | None:
        return 0.01 if "beat=1" in self.query else None

    async def beat(self) -> None:
        self.beats += 1
        if self.beats == 1:
            raise OperationalError("the database restarts")  # tried again at the next
        await self.send_html(f"beat {self.beats}")
        await self.end(1000)

    async def caught_up(self) -> None:
        await self.send_html("caught up")

    async def tiny_said(self, event: dict[str, object]) -> None:
        if event.get("away"):
            raise OperationalError("the database restarts")
        async with self.pushing:
            await self.send_html(str(event["words"]))

    async def away(self, message: dict[str, object]) -> None:
        await self.send_html("away")


app = HandshakeGuard(AuthMiddlewareStack(URLRouter([path("ws/tiny/", Tiny.as_asgi())])))


def tiny(cookie: str = "", query: str = "", accept_language: bytes = b"") -> Communicator:
    """A socket to the tiny page, in this session (anonymous without), its browser asking for
    `accept_language` if given."""
    headers = [(b"cookie", f"sessionid={cookie}".encode())] if cookie else []
    if accept_language:
        headers.append((b"accept-language", accept_language))
    return Communicator(app, f"/ws/tiny/?{query}", headers=headers)


async def opened(ws: Communicator) -> None:
    """Connect and read the first push."""
    connected, _ = await ws.connect()
    assert connected
    assert await ws.receive_from() == "opened"


def only_socket() -> Tiny:
    """The consumer of the one socket open (the only one the drain knows of)."""
    (socket,) = list(drain.STATE.sockets)
    assert isinstance(socket, Tiny)
    return socket


def said(words: str, **more: object) -> None:
    send_to_group(GROUP, {"type": "tiny.said", "words": words, **more})


async def session_cookie(user: User) -> tuple[Client, str]:
    client = await database_sync_to_async(client_for)(user)
    return client, client.cookies["sessionid"].value


async def test_a_socket_joins_its_pages_group_and_hears_it(player: User) -> None:
    _, cookie = await session_cookie(player)
    ws = tiny(cookie)
    await opened(ws)
    await database_sync_to_async(said)("hello")
    assert await ws.receive_from() == "hello"
    await ws.disconnect()


async def test_a_socket_speaks_its_persons_language_read_once_at_the_handshake(
    player: User,
) -> None:
    """The platform reads the language (a saved choice over the browser's) before the socket's
    own `asked`: the tiny socket never reads it itself."""
    player.language = "de"
    await database_sync_to_async(player.save)(update_fields=["language"])
    _, cookie = await session_cookie(player)
    german = tiny(cookie, accept_language=b"fr")
    await opened(german)
    assert only_socket().language == "de"
    await german.disconnect()
    visitor = tiny(accept_language=b"fr-FR,fr;q=0.9")
    await opened(visitor)
    assert only_socket().language == "fr"
    await visitor.disconnect()


async def test_a_message_not_for_this_page_is_let_pass(player: User) -> None:
    _, cookie = await session_cookie(player)
    ws = tiny(cookie)
    await opened(ws)
    other = {"type": "tournament.changed", "version": 3}  # a tournament page's, to their group
    await database_sync_to_async(send_to_group)(user_group(player.pk), other)
    await database_sync_to_async(said)("still here")
    assert await ws.receive_from() == "still here"
    await ws.disconnect()


async def test_logging_out_closes_that_sessions_socket_and_no_other(player: User) -> None:
    client, cookie = await session_cookie(player)
    _, other_cookie = await session_cookie(player)
    mine, other = tiny(cookie), tiny(other_cookie)
    await opened(mine)
    await opened(other)
    await database_sync_to_async(Client.post)(client, "/accounts/logout/")
    assert await closed_with(mine) == SESSION_ENDED
    await database_sync_to_async(said)("to the other tab")
    assert await other.receive_from() == "to the other tab"
    await other.disconnect()


async def test_a_closed_account_closes_its_sockets_saying_so(player: User) -> None:
    _, cookie = await session_cookie(player)
    ws = tiny(cookie)
    await opened(ws)
    player.is_active = False
    await database_sync_to_async(player.save)()
    assert await closed_with(ws) == ACCOUNT_CLOSED


async def test_the_caps_count_this_socket_and_let_its_row_go_when_it_closes(
    player: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(caps, "SOCKETS_AT_A_TABLE", 1)
    _, cookie = await session_cookie(player)
    first = tiny(cookie)
    await opened(first)
    one_more = tiny(cookie)
    connected, _ = await one_more.connect()
    assert connected  # accepted, then closed with the code the page explains
    assert await closed_with(one_more) == TABS_AT_TABLE
    await first.disconnect()
    rows = TableSocket.objects.filter(place="tiny").count
    assert await database_sync_to_async(rows)() == 0
    again = tiny(cookie)  # the closed one's place is free
    await opened(again)
    await again.disconnect()


async def test_an_access_check_refused_is_accepted_then_closed_with_its_code() -> None:
    ws = tiny(query="refuse=1")
    connected, _ = await ws.connect()
    assert connected
    assert await closed_with(ws) == NOT_FOUND


async def test_anything_a_page_that_sends_nothing_sends_closes_its_socket() -> None:
    ws = tiny()
    await opened(ws)
    await ws.send_to(text_data='{"type": "standings", "points": 99}')
    assert await closed_with(ws) == TOO_MANY


async def test_a_lost_layer_closes_the_socket_to_come_back() -> None:
    ws = tiny()
    await opened(ws)
    socket = only_socket()
    await socket.lose("Redis pub/sub lost")
    assert await closed_with(ws) == SERVICE_RESTART


async def test_groups_redis_forgot_are_joined_again_and_the_page_caught_up() -> None:
    ws = tiny()
    await opened(ws)
    socket = only_socket()
    await get_channel_layer().group_discard(GROUP, socket.channel_name)  # as a restarted Redis
    await socket.rejoin()
    assert await ws.receive_from() == "caught up"
    await database_sync_to_async(said)("heard again")
    assert await ws.receive_from() == "heard again"
    await ws.disconnect()


async def test_the_drain_closes_with_3012_once_the_push_in_hand_is_sent() -> None:
    ws = tiny()
    await opened(ws)
    socket = only_socket()
    await socket.pushing.acquire()  # a push in hand
    restart = asyncio.ensure_future(socket.restart())
    await asyncio.sleep(0)
    assert not socket.closed  # waits for it
    await socket.send_html("the push in hand")
    socket.pushing.release()
    await restart
    assert await ws.receive_from() == "the push in hand"
    assert await closed_with(ws) == SERVICE_RESTART


async def test_a_socket_a_stopping_process_still_took_is_sent_elsewhere(
    fresh_drain: drain.Drain,
) -> None:
    fresh_drain.draining = True
    ws = tiny()
    connected, _ = await ws.connect()
    assert connected
    assert await closed_with(ws) == SERVICE_RESTART
    assert not fresh_drain.sockets


async def test_a_handshake_that_meets_the_database_away_is_closed_to_come_back() -> None:
    ws = tiny(query="away=1")
    connected, _ = await ws.connect()
    assert connected
    assert await closed_with(ws) == DATABASE_AWAY


async def test_an_open_socket_stays_open_while_the_database_is_away() -> None:
    ws = tiny()
    await opened(ws)
    await database_sync_to_async(said)("", away=True)
    assert await ws.receive_from() == "away"
    await database_sync_to_async(said)("back")
    assert await ws.receive_from() == "back"
    await ws.disconnect()


async def test_a_beat_the_database_refused_is_tried_again_at_the_next() -> None:
    ws = tiny(query="beat=1")
    await opened(ws)
    assert await ws.receive_from() == "beat 2"
    assert await closed_with(ws) == 1000
