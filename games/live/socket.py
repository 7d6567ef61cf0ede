"""The life every websocket of the site shares (a table's, the waiting page's, a tournament's, and
any later one): a socket is a small subclass of `Socket` that says what is its own.

What a subclass declares:

- `asked()`: what the page asked (the route's arguments, its query), read first (the person's
  language is read before it, once for every socket: `self.language`);
- `page_groups()`: the groups of its page (the person's own group is joined beside them when
  signed in: their table ready, their inbox badge, their session ending);
- `check()`: its access check (and first read): a close code refuses the socket;
- `place()`: where its caps count it (games/live/caps.py), unless it overrides `arrive`;
- `opened()`: its first push; `beat_seconds()` and `beat()` if it beats while open;
- its handlers (`game_updated`, `tournament_changed`...), and `caught_up`, `away`, `depart`
  where it has something to add.

What the platform does, once, for each of them, in this order on connect: it joins the groups
(a channel layer that is down refuses the handshake), runs the access check, accepts (a refused
socket is accepted then closed with its code: a refused handshake reaches the page as 1006,
which it cannot tell from a dropped network), sends a socket that a stopping process still took
elsewhere at once (3012, games/live/drain.py), and counts it under the caps of its session and
its client address over every socket together (caps.py). Then while open: it closes on the
session's end or when it no longer holds (sessions.py), on the layer's loss (3012, the page
comes back and resyncs), joins its groups again when Redis lost them (layer_watch.py), closes
with 3012 in the drain's pace, answers a database that went away (games/outages.py), closes on
anything a page that sends nothing sends (4429), and on its close leaves its groups and lets
its row go. Close codes: games/live/protocol.py.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Coroutine
from typing import ClassVar

from autobahn.exception import Disconnected
from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncWebsocketConsumer
from redis.exceptions import RedisError

from games import outages
from games.groups import user_group
from games.live import caps, drain
from games.live.languages import scope_language
from games.live.layer_watch import unwatch, watch
from games.live.protocol import DATABASE_AWAY, LAYER_LOST, SERVICE_RESTART, TOO_MANY, go_html
from games.live.push_threads import off_loop
from games.live.sessions import (
    SESSION_ENDED,
    SocketSession,
    ended_code,
    session_digest,
    socket_session,
)
from games.notifications.badge import badge_html

logger = logging.getLogger(__name__)


class Socket(AsyncWebsocketConsumer):  # type: ignore[misc]  # channels: no stubs
    """One websocket's life; a subclass adds its page's groups, access check and handlers."""

    shows_badge: ClassVar[bool] = True
    """Whether the page has the menu's inbox link (its badge is sent as notifications change)."""

    session: SocketSession | None = None
    owner: caps.Owner
    groups_joined: list[str]
    tasks: set[asyncio.Task[None]]
    pushing: asyncio.Lock
    accepted: bool = False
    arrived: bool = False  # counted under the caps (its row kept until it departs)
    closed: bool = False
    restarted: bool = False
    language: str | None = None
    """The socket's person's language, read once at the handshake (scope_language): what it
    reads and renders for them is written in it (off_loop(fn, self.language)); None before."""

    # --- what a socket declares -------------------------------------------------------------

    def asked(self) -> None:
        """Read what the page asked (the route's arguments, the query string)."""

    def page_groups(self) -> list[str]:
        """The groups of this socket's page (the person's own is added when signed in)."""
        return []

    async def check(self) -> int | None:
        """The access check (and the first read, if one serves both): a close code refuses."""
        return None

    def place(self) -> str:
        """Where the caps count this socket at one place (caps.PAIRING, caps.tournament_place)."""
        raise NotImplementedError

    async def opened(self) -> None:
        """The socket is accepted and counted: its first push."""

    def beat_seconds(self) -> float | None:
        """How often `beat` runs while the socket is open (None: it never beats)."""
        return None

    beats_at_once: ClassVar[bool] = False
    """Whether the first beat comes at once (else one beat_seconds() after opening)."""

    async def beat(self) -> None:
        """The page is still open (see beat_seconds)."""

    async def caught_up(self) -> None:
        """The groups were joined again after Redis lost them: send what changed meanwhile."""

    async def away(self, message: dict[str, object]) -> None:
        """The database went away while this open socket handled `message` (see database_away)."""

    async def depart(self) -> None:
        """The socket closed after it arrived: its row goes (it keeps nobody anywhere)."""
        await caps.release(self)

    # --- connect and close --------------------------------------------------------------------

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)
        self.tasks = set()
        self.pushing = asyncio.Lock()  # held while a push (or move) is read and sent
        self.groups_joined = []

    async def connect(self) -> None:
        self.session = socket_session(self.scope)
        self.language = scope_language(self.scope)
        self.asked()
        try:
            await self.join()
        except RedisError as error:
            logger.warning("Channel layer down, socket to %s refused: %s", self.path(), error)
            await self.close()
            return
        refused = await self.check()
        await self.accept()
        self.accepted = True
        if refused is not None:
            await self.leave()
            await self.end(refused)
            return
        if drain.draining():  # a handshake this stopping process still took: come back elsewhere
            await self.leave()
            await self.end(SERVICE_RESTART)
            return
        watch(self)
        drain.opened(self)
        self.owner = caps.owner_of(self.scope, self.session)
        capped = await self.arrive()
        if capped is not None:  # too many sockets of its session or address: closed for good
            unwatch(self)
            await self.leave()
            await self.end(capped)
            return
        self.arrived = True
        await self.opened()
        every = self.beat_seconds()
        if every is not None and not self.closed:
            self.soon(self.beat_forever(0.0 if self.beats_at_once else every))

    async def arrive(self) -> int | None:
        """Count this socket under its owner's caps at its place (caps.admit): past one, the
        close code that says which. Its row is kept until it departs."""
        user_id = self.session.user_id if self.session is not None else None
        admitted = await off_loop(caps.admit)(
            self.channel_name, self.owner, user_id=user_id, place=self.place()
        )
        return admitted.code

    async def disconnect(self, code: int) -> None:
        self.closed = True
        unwatch(self)
        drain.closed(self)
        for task in list(self.tasks):
            task.cancel()
        await self.leave()
        if self.arrived:
            self.arrived = False
            await self.depart()

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

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """A page that sends nothing: anything it sends closes the socket."""
        await self.end(TOO_MANY)

    def path(self) -> str:
        """The socket's path, for the logs."""
        return str(self.scope.get("path", "?"))

    # --- groups and the channel layer ---------------------------------------------------------

    async def join(self) -> None:
        """Join the page's groups and the person's own (before anything is read)."""
        self.groups_joined = self.page_groups()
        if self.session is not None:
            self.groups_joined.append(user_group(self.session.user_id))
        for group in self.groups_joined:
            await self.channel_layer.group_add(group, self.channel_name)

    async def leave(self) -> None:
        """Leave every group this socket joined; a failure is harmless and never raised.

        A group kept by mistake only sends this closed socket's channel messages that expire
        unread (channels-redis: 60 s), and a Redis that restarted forgot its groups anyway.
        """
        groups, self.groups_joined = self.groups_joined, []
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
                "Channel layer down, socket to %s closed: %s", self.path(), event["error"]
            )
            await self.end(LAYER_LOST)

    async def lose(self, why: str) -> None:
        """The layer lost this socket's subscriptions (live.layer_watch): close to reconnect."""
        await self.dispatch({"type": "layer.lost", "error": why})

    async def rejoin(self) -> None:
        """Redis lost its keys, and with them this socket's groups (games/live/layer_watch.py)."""
        await self.dispatch({"type": "layer.rejoin"})

    async def layer_rejoin(self, event: dict[str, object]) -> None:
        """Join the groups again, then send what changed meanwhile."""
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
        await self.caught_up()

    # --- the session, the drain, the menu's badge ---------------------------------------------

    async def session_ended(self, event: dict[str, object]) -> None:
        """This person logged out: close the sockets of that session."""
        if self.session is not None and event.get("session") == session_digest(self.session.key):
            self.session.forget()
            await self.end(SESSION_ENDED)

    async def session_check(self, event: dict[str, object]) -> None:
        """This person's account changed: close the socket if its session no longer holds."""
        if self.session is not None and not await off_loop(self.session.alive)(recheck=True):
            await self.end(SESSION_ENDED)

    async def restart(self) -> None:
        """This process is stopping (games/live/drain.py): once the push (or move) in hand is
        sent, close with SERVICE_RESTART; the page comes back at once, to another process."""
        async with self.pushing:
            self.restarted = True
            await self.end(SERVICE_RESTART)

    async def page_go(self, event: dict[str, object]) -> None:
        """This person was seated at a table (groups.go_to): the page goes there."""
        await self.send_html(go_html(event.get("url")))

    async def notices_changed(self, event: dict[str, object]) -> None:
        """This person's notifications changed: send the menu's inbox link with its badge."""
        if self.shows_badge and not self.closed:
            await self.send_html(await off_loop(badge_html)(self.scope["user"]))

    # --- messages -----------------------------------------------------------------------------

    async def dispatch(self, message: dict[str, object]) -> None:
        """Handle a message, without Channels' trip to the process's one sync thread first; one
        that is not this page's (a message to the person's group meant for another of their
        pages) is let pass.

        Channels' own dispatch awaits aclose_old_connections before every handler: a hop to the
        single thread that every socket of the process shares, for a connection a socket never
        holds (it reads only in push threads, off_loop, whose DatabaseSyncToAsync closes old
        connections before and after each call). Measured with make bench-web, 100 Midnight
        Bakery tables on PostgreSQL + Redis + 2 Daphne, adjacent 120 s runs: p95 68 ms and 11 ms
        of server CPU a move with this, 112 and 144 ms and 12 ms with Channels' own.
        """
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            return
        try:
            await handler(message)
        except outages.OUTAGE as error:
            outages.away(error)
            await self.database_away(message)

    async def database_away(self, message: dict[str, object]) -> None:
        """The database went away while this socket handled `message` (games/outages.py): a
        handshake is closed with DATABASE_AWAY, which the page reconnects after; an open socket
        stays open, and its page's own answer is `away`'s (a closing one's presence row goes
        stale and counts as closed)."""
        kind = message["type"]
        if kind == "websocket.connect":
            if not self.accepted:
                await self.accept()
            await self.end(DATABASE_AWAY)
        elif kind != "websocket.disconnect" and not self.closed:
            await self.away(message)

    def soon(self, work: Coroutine[object, None, None]) -> asyncio.Task[None]:
        """Run this in its own task, cancelled when the socket closes."""
        task: asyncio.Task[None] = asyncio.ensure_future(work)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)
        return task

    async def beat_forever(self, wait: float) -> None:
        """A beat after `wait`, then every beat_seconds() until the socket closes; a beat the
        database refused is tried again at the next."""
        while not self.closed:
            if wait > 0:
                await asyncio.sleep(wait)
                if self.closed:
                    return
            try:
                await self.beat()
            except outages.OUTAGE as error:
                outages.away(error)
            wait = self.beat_seconds() or 0.0

    async def send_html(self, html: str) -> None:
        """Send unless the socket has closed meanwhile (a send racing the client's disconnect is
        no error, only the end)."""
        if self.closed or not html:
            return
        try:
            await self.send(text_data=html)
        except Disconnected:
            self.closed = True
