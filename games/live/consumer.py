"""The table's websocket: joins the game's group and pushes this user's board as HTML.

The socket's life (groups, session, caps, layer, drain, outages, closing) is the platform's,
games/live/socket.py; this is what a table adds: its access check, its arrival (the caps and its
presence, in one trip), the messages it handles. What it reads and renders is
games/live/pushes.py, the moves sent on it games/live/socket_moves.py, and what it and its page
say to each other games/live/protocol.py."""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable
from typing import TypeVar, cast

from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext

from accounts.models import signed_in
from games import outages
from games.access import invited_to
from games.boards import Sent, board_message, shared
from games.boards.page import swap_html
from games.boards.shared import TableAt
from games.groups import group_name
from games.live.protocol import TOO_MANY, go_html, is_move, page_message, table_of
from games.live.push_threads import off_loop
from games.live.pushes import Push, Shown, arrived, chat_for, load_table, pushed
from games.live.sessions import SESSION_ENDED
from games.live.socket import Socket
from games.live.socket_moves import Tap, played, results_closed
from games.services import presence

DATABASE_RETRY = 2.0  # seconds before a push the database refused is tried again
FLOOD_WINDOW = 10.0
FLOOD_LIMIT = 50  # a quick player against bots sends about two moves a second
RESYNC_EVERY = 1.0

logger = logging.getLogger(__name__)

R = TypeVar("R")


def now() -> float:
    """The consumer's clock (seconds, monotonic)."""
    return time.monotonic()


class GameConsumer(Socket):
    """Sends the whole board on connect, then only the regions that changed."""

    game_id: int
    version: int = -1
    status: str = ""
    prints: Sent = {}  # replaced after each push, never changed in place
    table: TableAt | None = None  # read on connect, pushed as the first board
    kind: str = ""  # the table's game: a page.go to a table of the same game swaps in place

    def asked(self) -> None:
        self.game_id = int(self.scope["url_route"]["kwargs"]["game_id"])
        self.init_limits()

    def off(self, fn: Callable[..., R]) -> Callable[..., Awaitable[R]]:
        """`fn` on a push thread, its words in this socket's person's language."""
        return off_loop(fn, self.language)

    def init_limits(self) -> None:
        """Fresh per-socket message limits."""
        self.received: deque[float] = deque()
        self.last_resync = -RESYNC_EVERY
        self.pending: asyncio.Task[None] | None = None

    def page_groups(self) -> list[str]:
        """The table's group (joined before the board is read)."""
        return [group_name(self.game_id)]

    async def check(self) -> int | None:
        """The table read once for the access check and the first board."""
        invited = invited_to(self.scope.get("session"))
        self.table, refused = await self.off(load_table)(self.game_id, self.scope["user"], invited)
        if self.table is not None:
            self.kind = self.table.game.kind
        return refused

    async def arrive(self) -> int | None:
        """The caps and the socket's presence, in one trip (pushes.arrived): the table as it is
        now, with who is at it, or the cap's close code."""
        assert self.table is not None
        shared.socket_opened(self.game_id)
        arrival = await self.off(arrived)(
            self.table, self.channel_name, self.scope["user"], self.owner
        )
        if isinstance(arrival, int):
            shared.socket_closed(self.game_id)
            return arrival
        self.table = arrival
        return None

    async def opened(self) -> None:
        known, self.table = self.table, None
        await self.refresh(whole=True, known=known)

    async def caught_up(self) -> None:
        await self.refresh(whole=False)

    async def depart(self) -> None:
        """The table's other sockets here share one less; the presence row closes (a restart's
        rows close together, presence.restarted)."""
        shared.socket_closed(self.game_id)
        if not self.restarted:
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
            self.pending = self.soon(self.resync_later(wait))

    async def play(self, fields: dict[str, str]) -> None:
        """Make the move this page sent, and answer it on this socket (see played)."""
        await self.answer(played, fields)

    async def close_results(self, fields: dict[str, str]) -> None:
        """Close the results this page showed, and redraw it (see results_closed)."""
        await self.answer(results_closed, fields)

    async def answer(self, work: Callable[[Tap], Push], fields: dict[str, str]) -> None:
        """Do what this page sent (`work`, on a push thread) and send its answer. Sent as this
        process's restart closed the socket, it is still made: the page, back on another
        process, sees it on the board."""
        async with self.pushing:
            if self.closed and not self.restarted:
                return
            user = self.scope["user"]
            session = self.session if signed_in(user) else None
            tap = Tap(self.game_id, user, session, fields, self.shown())
            push = await self.off(work)(tap)
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
        html = await self.off(chat_for)(self.game_id, user, self.session)
        if html is None:
            await self.end(SESSION_ENDED)
        elif html:
            await self.send_html(html)

    async def page_go(self, event: dict[str, object]) -> None:
        """This person was seated at another table (groups.go_to): the page goes there, the new
        table's part drawn for them beside it, which a page of the same game swaps in place
        (games/boards/page.py) instead of asking for it. Should that drawing fail, the page
        still goes (it asks for the table as any link does)."""
        url = event.get("url")
        html = go_html(url)
        if not html or url == reverse("games:table", args=[self.game_id]):
            return
        game_id = table_of(url)
        if game_id is not None and self.kind:
            try:
                html += await self.off(swap_html)(game_id, url, self.scope["user"], self.kind)
            except Exception:  # the move matters more than the swap
                logger.exception("The table part for %s was not drawn", url)
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
            push = await self.off(pushed)(
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

    async def away(self, message: dict[str, object]) -> None:
        """A move is told in words that it was not taken (the page takes taps again); a push is
        tried again as a whole board a little later, until the database is back."""
        if message["type"] == "websocket.receive" and is_move(
            cast("str | None", message.get("text"))
        ):
            with translation.override(self.language):
                words = gettext(outages.WORDS)
            await self.send_html(board_message(words))
        elif self.pending is None:
            self.pending = self.soon(self.resync_later(DATABASE_RETRY))
