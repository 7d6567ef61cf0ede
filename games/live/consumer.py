"""The table's websocket: joins the game's group and pushes this user's board as HTML.

The consumer is the socket's life (connect, groups, limits, the messages it handles, closing);
what it reads and renders is games/live/pushes.py, the moves sent on it games/live/socket_moves.py,
and what it and its page say to each other games/live/protocol.py."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from collections.abc import Callable
from typing import cast

from autobahn.exception import Disconnected
from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncWebsocketConsumer
from django.urls import reverse
from redis.exceptions import RedisError

from accounts.models import signed_in
from games import outages
from games.access import invited_to
from games.boards import Sent, board_message, shared
from games.boards.shared import TableAt
from games.groups import group_name, user_group
from games.live import caps, drain
from games.live.layer_watch import unwatch, watch
from games.live.protocol import (
    DATABASE_AWAY,
    LAYER_LOST,
    NOT_FOUND,
    SERVICE_RESTART,
    TOO_MANY,
    go_html,
    is_move,
    page_message,
)
from games.live.push_threads import off_loop
from games.live.pushes import Push, Shown, arrived, chat_for, load_table, pushed
from games.live.sessions import (
    SESSION_ENDED,
    SocketSession,
    ended_code,
    session_digest,
    socket_session,
)
from games.live.socket_moves import played, results_closed
from games.notifications.badge import badge_html
from games.services import presence

logger = logging.getLogger(__name__)

DATABASE_RETRY = 2.0  # seconds before a push the database refused is tried again
FLOOD_WINDOW = 10.0
FLOOD_LIMIT = 50  # a quick player against bots sends about two moves a second
RESYNC_EVERY = 1.0


def now() -> float:
    """The consumer's clock (seconds, monotonic)."""
    return time.monotonic()


class GameConsumer(AsyncWebsocketConsumer):  # type: ignore[misc]  # channels: no stubs
    """Sends the whole board on connect, then only the regions that changed."""

    game_id: int
    version: int = -1
    status: str = ""
    prints: Sent = {}  # replaced after each push, never changed in place
    groups_joined: list[str]
    session: SocketSession | None = None
    closed: bool = False
    restarted: bool = False
    present: bool = False
    accepted: bool = False

    async def connect(self) -> None:
        self.game_id = int(self.scope["url_route"]["kwargs"]["game_id"])
        self.init_limits()
        user = self.scope["user"]
        session = self.scope.get("session")
        invited = invited_to(session)
        self.session = socket_session(self.scope)
        try:
            await self.join()
        except RedisError as error:
            logger.warning("Channel layer down, socket to game %s refused: %s", self.game_id, error)
            await self.close()
            return
        table, refused = await off_loop(load_table)(self.game_id, user, invited)
        if table is None:
            # Accepted, then closed with the code that says why: a handshake refused with HTTP
            # 403 reaches the page as 1006, which it cannot tell from a dropped network.
            await self.leave()
            await self.accept()
            await self.end(refused if refused is not None else NOT_FOUND)
            return
        await self.accept()
        self.accepted = True
        if drain.draining():  # a handshake this stopping process still took: come back elsewhere
            await self.leave()
            await self.end(SERVICE_RESTART)
            return
        self.prints = {}
        watch(self)
        drain.opened(self)
        shared.socket_opened(self.game_id)
        owner = caps.owner_of(self.scope, self.session)
        arrival = await off_loop(arrived)(table, self.channel_name, user, owner)
        if isinstance(arrival, int):
            # Too many of this session's sockets are open: closed for good, the page says why.
            unwatch(self)
            shared.socket_closed(self.game_id)
            await self.leave()
            await self.end(arrival)
            return
        self.present = True
        await self.refresh(whole=True, known=arrival)

    def init_limits(self) -> None:
        """Fresh per-socket message limits."""
        self.received: deque[float] = deque()
        self.last_resync = -RESYNC_EVERY
        self.pending: asyncio.Task[None] | None = None
        self.pushing = asyncio.Lock()

    async def join(self) -> None:
        """Join the table's group (and the person's own) before the board is read."""
        self.groups_joined = [group_name(self.game_id)]
        if self.session is not None:
            self.groups_joined.append(user_group(self.session.user_id))
        for group in self.groups_joined:
            await self.channel_layer.group_add(group, self.channel_name)

    async def leave(self) -> None:
        """Leave every group this socket joined; a failure is harmless and never raised.

        A group kept by mistake only sends this closed socket's channel messages that expire
        unread (channels-redis: 60 s), and a Redis that restarted forgot its groups anyway.
        """
        groups, self.groups_joined = getattr(self, "groups_joined", []), []
        for group in groups:
            try:
                await self.channel_layer.group_discard(group, self.channel_name)
            except (RedisError, OSError) as error:
                logger.warning("Channel layer down, %s kept a closed socket: %s", group, error)

    async def layer_lost(self, event: dict[str, object]) -> None:
        """The channel layer went away (its receive failed, games/live/channel_layer.py, or its
        subscriptions broke, live.layer_watch): close (not for good) so the page reconnects and
        resyncs."""
        if not self.closed:
            logger.warning(
                "Channel layer down, socket to game %s closed: %s", self.game_id, event["error"]
            )
            await self.end(LAYER_LOST)

    async def lose(self, why: str) -> None:
        """The layer lost this socket's subscriptions (live.layer_watch): close to reconnect."""
        await self.dispatch({"type": "layer.lost", "error": why})

    async def rejoin(self) -> None:
        """Redis lost its keys, and with them this socket's groups (games/live/layer_watch.py)."""
        await self.dispatch({"type": "layer.rejoin"})

    async def layer_rejoin(self, event: dict[str, object]) -> None:
        """Join the groups again, then send what changed since the last push."""
        if self.closed:
            return
        try:
            await self.join()
        except RedisError:
            await self.end(LAYER_LOST)
            return
        if self.closed:  # it closed while joining: leave what was joined again
            await self.leave()
            return
        await self.refresh(whole=False)

    async def disconnect(self, code: int) -> None:
        self.closed = True
        unwatch(self)
        drain.closed(self)
        if self.pending is not None:
            self.pending.cancel()
        await self.leave()
        if self.present:
            shared.socket_closed(self.game_id)
            if not self.restarted:  # a restart's rows close together (presence.restarted)
                await off_loop(presence.closed)(self.channel_name, self.game_id)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """A resync request or a move; a flood or anything else closes the socket."""
        message = page_message(text_data)
        if self.flooded() or message is None:
            await self.end(TOO_MANY)
            return
        if message["type"] == "play":
            await self.play(message["fields"])
            return
        if message["type"] == "close_results":
            await self.close_results(message["fields"])
            return
        wait = self.last_resync + RESYNC_EVERY - now()
        if wait <= 0:
            await self.resync()
        elif self.pending is None:
            self.pending = asyncio.ensure_future(self.resync_later(wait))

    async def play(self, fields: dict[str, str]) -> None:
        """Make the move this page sent, and answer it on this socket (see played)."""
        await self.answer(played, fields)

    async def close_results(self, fields: dict[str, str]) -> None:
        """Close the results this page showed, and redraw it (see results_closed)."""
        await self.answer(results_closed, fields)

    async def answer(self, work: Callable[..., Push], fields: dict[str, str]) -> None:
        """Do what this page sent (`work`, on a push thread) and send its answer. Sent as this
        process's restart closed the socket, it is still made: the page, back on another
        process, sees it on the board."""
        async with self.pushing:
            if self.closed and not self.restarted:
                return
            user = self.scope["user"]
            session = self.session if signed_in(user) else None
            push = await off_loop(work)(self.game_id, user, session, fields, self.shown())
            await self.sent(push)

    def flooded(self) -> bool:
        """Count this message; True past FLOOD_LIMIT messages in FLOOD_WINDOW seconds."""
        at = now()
        self.received.append(at)
        while self.received and self.received[0] <= at - FLOOD_WINDOW:
            self.received.popleft()
        return len(self.received) > FLOOD_LIMIT

    async def resync_later(self, wait: float) -> None:
        """Serve the resyncs that came within a second of the last one, once, a second later."""
        await asyncio.sleep(wait)
        self.pending = None
        await self.dispatch({"type": "resync.due"})

    async def resync_due(self, event: dict[str, object]) -> None:
        """The coalesced resync's second has passed."""
        await self.resync()

    async def resync(self) -> None:
        """Send the whole board as stored now."""
        self.last_resync = now()
        await self.refresh(whole=True)

    async def chat_changed(self, event: dict[str, object]) -> None:
        """A chat line came or was hidden, or this person muted someone: redraw the chat."""
        if event.get("game") == self.game_id:
            await self.send_chat()

    async def send_chat(self) -> None:
        """Send this viewer's chat lines, if they may read the chat."""
        if self.closed:
            return
        user = self.scope["user"]
        html = await off_loop(chat_for)(self.game_id, user, self.session)
        if html is None:
            await self.end(SESSION_ENDED)
        elif html:
            await self.send_html(html)

    async def notices_changed(self, event: dict[str, object]) -> None:
        """This person's notifications changed: send the menu's inbox link with its badge."""
        if not self.closed:
            html = await off_loop(badge_html)(self.scope["user"])
            if html:
                await self.send_html(html)

    async def page_go(self, event: dict[str, object]) -> None:
        """This person was seated at another table (groups.go_to): the page goes there."""
        html = go_html(event.get("url"))
        if html and event.get("url") != reverse("games:table", args=[self.game_id]):
            await self.send_html(html)

    async def game_updated(self, event: dict[str, object]) -> None:
        """A new version was committed: render and send what changed for this user."""
        version = event.get("version", 0)
        if isinstance(version, int) and version > self.version:
            await self.refresh(whole=False, version=version)

    async def presence_changed(self, event: dict[str, object]) -> None:
        """Someone came or went (or went away): redraw what changed, reading presence anew."""
        stamp = event.get("stamp")
        if isinstance(stamp, float):
            await self.refresh(whole=False, stamp=stamp)

    async def restart(self) -> None:
        """This process is stopping (games/live/drain.py): once the move or push in hand is
        sent, close with SERVICE_RESTART; the page comes back at once, to another process."""
        async with self.pushing:
            self.restarted = True
            await self.end(SERVICE_RESTART)

    async def session_ended(self, event: dict[str, object]) -> None:
        """This person logged out: close the sockets of that session."""
        if self.session is not None and event.get("session") == session_digest(self.session.key):
            self.session.forget()
            await self.end(SESSION_ENDED)

    async def session_check(self, event: dict[str, object]) -> None:
        """This person's account changed: close the socket if its session no longer holds."""
        if self.session is not None and not await off_loop(self.session.alive)(recheck=True):
            await self.end(SESSION_ENDED)

    async def refresh(
        self,
        *,
        whole: bool,
        version: int | None = None,
        known: TableAt | None = None,
        stamp: float | None = None,
    ) -> None:
        """Re-read the table (after checking the session) and push what changed, in one trip to a
        push thread (see pushed)."""
        async with self.pushing:
            if self.closed:
                return
            push = await off_loop(pushed)(
                self.game_id,
                self.scope["user"],
                self.session,
                self.shown(),
                whole,
                version,
                known,
                stamp,
            )
            await self.sent(push)

    async def sent(self, push: Push) -> None:
        """Send a push (or close as it says), and note what the page now holds."""
        if push.close is not None:
            await self.end(push.close)
            return
        self.version, self.status, self.prints = push.version, push.status, push.prints
        if push.html:
            await self.send_html(push.html)

    def shown(self) -> Shown:
        """What this socket has sent so far."""
        return Shown(self.version, self.status, self.prints)

    async def send_html(self, html: str) -> None:
        """Send unless the socket has closed meanwhile (a send racing the client's disconnect is
        no error, only the end)."""
        if self.closed:
            return
        try:
            await self.send(text_data=html)
        except Disconnected:
            self.closed = True

    async def dispatch(self, message: dict[str, object]) -> None:
        """Handle a message, without Channels' trip to the process's one sync thread first.

        Channels' own dispatch awaits aclose_old_connections before every handler: a hop to the
        single thread that every socket of the process shares, for a connection this consumer
        never holds (it reads only in push threads, off_loop, whose DatabaseSyncToAsync closes
        old connections before and after each call). Measured with make bench-web, 100 Midnight
        Bakery tables on PostgreSQL + Redis + 2 Daphne, adjacent 120 s runs: p95 68 ms and 11 ms
        of server CPU a move with this, 112 and 144 ms and 12 ms with Channels' own.
        """
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        try:
            await handler(message)
        except outages.OUTAGE as error:
            outages.away(error)
            await self.database_away(message)

    async def database_away(self, message: dict[str, object]) -> None:
        """The database went away while this socket handled `message` (games/outages.py): the
        socket stays open. A move is told in words that it was not taken (the page takes taps
        again); a push is tried again as a whole board a little later, until the database is
        back; a handshake is closed with DATABASE_AWAY, which the page reconnects after."""
        kind = message["type"]
        if kind == "websocket.connect":
            if not self.accepted:
                await self.accept()
            await self.end(DATABASE_AWAY)
        elif kind == "websocket.disconnect" or self.closed:
            return  # the socket's presence row goes stale and counts as closed
        elif kind == "websocket.receive" and is_move(cast("str | None", message.get("text"))):
            await self.send_html(board_message(outages.WORDS))
        elif self.pending is None:
            self.pending = asyncio.ensure_future(self.resync_later(DATABASE_RETRY))

    async def end(self, code: int) -> None:
        """Close the socket with this code; nothing is sent after it (a session that ended says
        whether the account was closed)."""
        if self.closed:
            return
        self.closed = True
        if code == SESSION_ENDED and self.session is not None:
            code = await off_loop(ended_code)(self.session.user_id)
        with contextlib.suppress(Disconnected):  # the client went first
            await self.close(code=code)
