"""The table's websocket: joins the game's group and pushes this user's board as HTML."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import threading
import time
from collections import deque
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from datetime import timedelta
from typing import Any, TypeVar

from autobahn.exception import Disconnected
from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.urls import reverse
from django.utils.html import format_html
from redis.exceptions import RedisError

from games import outages
from games.access import can_watch, invited_to, watch_refused
from games.boards import Sent, board_message, render_diff, render_whole, shared
from games.boards.chat import render_chat_log
from games.boards.shared import TableAt, table_at
from games.engines import IllegalAction
from games.groups import group_name, user_group
from games.live.layer_watch import unwatch, watch
from games.live.sessions import (
    SESSION_ENDED,
    SocketSession,
    ended_code,
    session_digest,
    socket_owner,
    socket_session,
)
from games.models import Game
from games.notifications.badge import badge_html
from games.services import ServiceError, clocks, presence, rematch_arrived
from games.services.moves import close_posted, play_posted

logger = logging.getLogger(__name__)
T = TypeVar("T")
R = TypeVar("R")

LAYER_LOST = 3012  # Daphne sends only 1000 or 3000-4999: 1012 (service restart) in the 3xxx range
DATABASE_AWAY = 3013  # the handshake met the database away: the page reconnects (not for good)
DATABASE_RETRY = 2.0  # seconds before a push the database refused is tried again
NOT_ALLOWED = 4403
NOT_FOUND = 4404
TABS_AT_TABLE = 4408  # this session holds presence.SOCKETS_AT_A_TABLE sockets at the table
TABS_IN_ALL = 4409  # this session holds presence.SOCKETS_IN_ALL sockets at all tables
TOO_MANY = 4429
MAX_MESSAGE = 4096  # a move's fields (its action at most games.services.moves.MAX_ACTION_CHARS) fit
MAX_FIELDS = 8
FLOOD_WINDOW = 10.0
FLOOD_LIMIT = 50  # a quick player against bots sends about two moves a second
RESYNC_EVERY = 1.0
SENT_FORMS = ("play", "close_results")  # the board's forms live.js sends on the socket


_push_pool: ThreadPoolExecutor | None = None
_push_pool_lock = threading.Lock()


def push_pool() -> ThreadPoolExecutor:
    """The threads this process's sockets read and render on (settings.PUSH_THREADS)."""
    global _push_pool
    with _push_pool_lock:
        if _push_pool is None:
            _push_pool = ThreadPoolExecutor(settings.PUSH_THREADS, thread_name_prefix="pushes")
        return _push_pool


def off_loop(fn: Callable[..., T]) -> Callable[..., Awaitable[T]]:
    """Run sync code (database, rendering) on a push thread, so one socket's round trips never
    queue every other socket's push behind them; each socket still pushes one thing at a time
    (GameConsumer.pushing), and the shared caches it reads lock themselves (boards/shared.py)."""
    run: Callable[..., Awaitable[T]] = database_sync_to_async(
        fn, thread_sensitive=False, executor=push_pool()
    )
    return run


def now() -> float:
    """The consumer's clock (seconds, monotonic)."""
    return time.monotonic()


def load_table(
    game_id: int, user: Any, invited: list[int]
) -> tuple[TableAt, None] | tuple[None, int]:
    """The table as stored now if this user may watch it, else the close code that says why: one
    read serves the access checks and the first board."""
    try:
        table = table_at(game_id)
    except Game.DoesNotExist:
        return None, NOT_FOUND
    refused = NOT_FOUND if not can_watch(table.game, user, invited) else None
    if refused is None and watch_refused(table.game, user, table.seats):
        refused = NOT_ALLOWED
    if refused is not None:
        shared.forget_unserved(game_id)  # read for the check alone
        return None, refused
    return table, None


def chat_for(game_id: int, user: Any, session: SocketSession | None) -> str | None:
    """This viewer's chat lines ("" if they may not read it), or None if the session ended."""
    if session is not None and not session.alive():
        return None
    table = table_at(game_id)  # the seats as this process's sockets share them
    return render_chat_log(table.game, user, table.seats)


CAPPED = {presence.AT_A_TABLE: TABS_AT_TABLE, presence.IN_ALL: TABS_IN_ALL}


def arrived(table: TableAt, channel: str, user: Any, owner: str) -> TableAt | int:
    """The socket's row written (and announced to the table); the table as just read (or newer),
    with who is at it now, this person included, kept for the table's other sockets here. Or,
    past a cap of its owner's open sockets, the close code that says which."""
    passed = presence.opened(channel, table.game.pk, getattr(user, "pk", None), owner)
    if passed:
        return CAPPED[passed]
    if awaits_arrivals(table, user) and rematch_arrived(table.game.pk):
        return table_at(table.game.pk, presence_stamp=time.time())  # its clocks started now
    return table_at(table.game.pk, table.game.version, presence_stamp=time.time())


def awaits_arrivals(table: TableAt, user: Any) -> bool:
    """Whether this person coming may start a rematch's first clocks: they sit at a rematch
    dealt within the arrival grace (read from the table as it is, no query)."""
    game = table.game
    if game.rematch_of_id is None or game.status != Game.Status.RUNNING or not game.started_at:
        return False
    if not any(s.user_id == getattr(user, "pk", None) for s in table.seats):
        return False
    return clocks.now() - game.started_at <= timedelta(seconds=settings.REMATCH_ARRIVAL_SECONDS)


def fresh(
    game_id: int,
    session: SocketSession | None,
    version: int | None,
    known: TableAt | None = None,
    stamp: float | None = None,
) -> TableAt | None:
    """The table at `version` or later (shared by this process's sockets; `known` if already
    read), its presence read after `stamp`, or None if the socket's session has ended."""
    if session is not None and not session.alive():
        return None
    return known or table_at(game_id, version, stamp)


@dataclass(frozen=True)
class Shown:
    """What a socket has sent: the version and status of its board, and each region's prints."""

    version: int
    status: str
    prints: Sent


@dataclass(frozen=True)
class Push:
    """What a socket sends next: the close code that ends it, or the board (whole or the regions
    that changed, "" if none did) and what it has then sent."""

    close: int | None
    html: str = ""
    version: int = -1
    status: str = ""
    prints: Sent = field(default_factory=dict)


def pushed(
    game_id: int,
    user: Any,
    session: SocketSession | None,
    shown: Shown,
    whole: bool,
    version: int | None = None,
    known: TableAt | None = None,
    stamp: float | None = None,
) -> Push:
    """The table read again (see fresh) and rendered for this viewer: whole if asked, and always
    when the phase moved (a lobby on screen has no regions a diff could land in), whatever
    message found it (a presence change can read a start before the start's own push comes).

    `version`: an announced version; the table as this process already read it will do if
    it is that new (the table's other sockets here read it once for all). `known`: the table
    just read (on connect), pushed as it is. `stamp`: when a presence change was announced;
    presence read before it is read again.
    """
    table = fresh(game_id, session, version, known, stamp)
    if table is None:
        return Push(SESSION_ENDED)
    game = table.game
    if game.status != shown.status and watch_refused(game, user, table.seats):
        return Push(NOT_ALLOWED)  # the game started, and the host keeps it from you
    if whole or game.status != shown.status:
        html, prints = render_whole(game, user, table)
    else:
        html, prints = render_diff(game, user, shown.prints, shown.version, table)
    return Push(None, html, game.version, game.status, prints)


def page_message(text: str | None) -> dict[str, Any] | None:
    """A well-formed message from the table's page, else None: a resync request (the version it
    shows), or a move or the closing of results (the fields its board form would post, as
    strings)."""
    if text is None or len(text.encode()) > MAX_MESSAGE:
        return None
    try:
        message = json.loads(text)
    except (ValueError, RecursionError):
        return None
    if not isinstance(message, dict):
        return None
    if message.get("type") == "resync":
        version = message.get("version")
        if isinstance(version, bool) or not isinstance(version, int) or version < 0:
            return None
        return message
    if message.get("type") in SENT_FORMS:
        fields = message.get("fields")
        if not isinstance(fields, dict) or len(fields) > MAX_FIELDS:
            return None
        if not all(isinstance(k, str) and isinstance(v, str) for k, v in fields.items()):
            return None
        return message
    return None


def is_move(text: str | None) -> bool:
    """Whether a page's message is one of its forms (a move), not a resync request."""
    message = page_message(text)
    return message is not None and message["type"] in SENT_FORMS


def answered(
    game_id: int,
    user: Any,
    session: SocketSession | None,
    shown: Shown,
    make: Callable[[], R],
    then: Callable[[R], Push],
    what: str,
) -> Push:
    """What a socket sends back for a form its page sent on it, made as if posted
    (games.services.moves): `then(make())` once made; refused, the words why and the board as
    stored, as a refused post answers, and nothing is changed."""
    if session is None:
        refusal = "Log in to take a seat and play."
    elif not session.alive():
        return Push(SESSION_ENDED)
    else:
        try:
            made = make()
        except (ServiceError, IllegalAction) as error:
            refusal = str(error)
        except outages.OUTAGE:
            raise  # told in words by GameConsumer.dispatch, without a board it cannot read
        except Exception:  # its transaction rolled back: said as a failed post says it
            logger.exception("%s on the socket to game %s failed", what, game_id)
            refusal = "Something went wrong on our side; your tap was not taken."
        else:
            return then(made)
    push = pushed(game_id, user, None, shown, True)
    return replace(push, html=board_message(refusal) + push.html)


def played(
    game_id: int, user: Any, session: SocketSession | None, fields: dict[str, str], shown: Shown
) -> Push:
    """A move sent on the socket (see answered). Made, the answer is the version it made
    (#move-made) and this viewer's regions that changed, at once (the table's announcement
    follows for the other sockets)."""

    def made(game: Game) -> Push:
        push = pushed(game_id, user, None, shown, False, game.version)
        return replace(push, html=move_made(game.version) + push.html)

    return answered(
        game_id, user, session, shown, lambda: play_posted(game_id, user, fields), made, "A move"
    )


def results_closed(
    game_id: int, user: Any, session: SocketSession | None, fields: dict[str, str], shown: Shown
) -> Push:
    """Results closed on the socket (see answered): this viewer's regions that changed at the
    version the close made (the table's announcement brings it to the person's other tabs).
    Closed already, it is the whole board as stored (a push that never came is healed so)."""

    def closed(game: Game | None) -> Push:
        if game is None:
            return pushed(game_id, user, None, shown, True)
        return pushed(game_id, user, None, shown, False, game.version)

    def close() -> Game | None:
        return close_posted(game_id, user, fields)

    return answered(game_id, user, session, shown, close, closed, "Closing results")


def go_html(url: object) -> str:
    """What sends a page to another of the site's paths (a table quick pairing seated its person
    at): live.js follows it. Empty for anything but a path of this site."""
    if not isinstance(url, str) or not url.startswith("/") or url.startswith("//"):
        return ""
    return format_html('<template id="page-go" data-url="{}"></template>', url)


def move_made(version: int) -> str:
    """What leads this socket's answer to its own move: the version the move made."""
    return format_html('<template id="move-made" data-version="{}"></template>', version)


class GameConsumer(AsyncWebsocketConsumer):  # type: ignore[misc]  # channels: no stubs
    """Sends the whole board on connect, then only the regions that changed."""

    game_id: int
    version: int = -1
    status: str = ""
    prints: Sent = {}  # replaced after each push, never changed in place
    groups_joined: list[str]
    session: SocketSession | None = None
    closed: bool = False
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
        self.prints = {}
        watch(self)
        shared.socket_opened(self.game_id)
        owner = socket_owner(self.scope, self.session)
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

    async def layer_lost(self, event: dict[str, Any]) -> None:
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

    async def layer_rejoin(self, event: dict[str, Any]) -> None:
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
        if self.pending is not None:
            self.pending.cancel()
        await self.leave()
        if self.present:
            shared.socket_closed(self.game_id)
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
        """Do what this page sent (`work`, on a push thread) and send its answer."""
        async with self.pushing:
            if self.closed:
                return
            user = self.scope["user"]
            session = self.session if getattr(user, "is_authenticated", False) else None
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

    async def resync_due(self, event: dict[str, Any]) -> None:
        """The coalesced resync's second has passed."""
        await self.resync()

    async def resync(self) -> None:
        """Send the whole board as stored now."""
        self.last_resync = now()
        await self.refresh(whole=True)

    async def chat_changed(self, event: dict[str, Any]) -> None:
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

    async def notices_changed(self, event: dict[str, Any]) -> None:
        """This person's notifications changed: send the menu's inbox link with its badge."""
        if not self.closed:
            html = await off_loop(badge_html)(self.scope["user"])
            if html:
                await self.send_html(html)

    async def page_go(self, event: dict[str, Any]) -> None:
        """This person was seated at another table (groups.go_to): the page goes there."""
        html = go_html(event.get("url"))
        if html and event.get("url") != reverse("games:table", args=[self.game_id]):
            await self.send_html(html)

    async def game_updated(self, event: dict[str, Any]) -> None:
        """A new version was committed: render and send what changed for this user."""
        version = event.get("version", 0)
        if isinstance(version, int) and version > self.version:
            await self.refresh(whole=False, version=version)

    async def presence_changed(self, event: dict[str, Any]) -> None:
        """Someone came or went (or went away): redraw what changed, reading presence anew."""
        stamp = event.get("stamp")
        if isinstance(stamp, float):
            await self.refresh(whole=False, stamp=stamp)

    async def session_ended(self, event: dict[str, Any]) -> None:
        """This person logged out: close the sockets of that session."""
        if self.session is not None and event.get("session") == session_digest(self.session.key):
            self.session.forget()
            await self.end(SESSION_ENDED)

    async def session_check(self, event: dict[str, Any]) -> None:
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

    async def dispatch(self, message: dict[str, Any]) -> None:
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

    async def database_away(self, message: dict[str, Any]) -> None:
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
        elif kind == "websocket.receive" and is_move(message.get("text")):
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
