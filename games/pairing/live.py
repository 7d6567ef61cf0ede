"""The waiting page's socket (/ws/pairing/): it keeps the person's seek alive, shows the waiting
panel as it moves, and sends the page to the table once they are seated.

While it is open it says every BEAT_SECONDS that the page is still there (the seek's last_seen)
and pushes the panel drawn anew (the rating window, the wait, who else looks). It sits in the
person's user group, so a pass's announcement (groups.go_to) reaches it at once; should that
message be lost (a channel layer delivers at most once), the next beat finds the seek gone and
the table it became. When it closes (the page was left), the seek is let go by the pass once
services.GRACE_SECONDS passed without a beat: a reload comes back well within that.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass
from datetime import UTC, datetime
from urllib.parse import parse_qs

from autobahn.exception import Disconnected
from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncWebsocketConsumer
from django.template.loader import render_to_string
from redis.exceptions import RedisError

from games import outages
from games.groups import user_group
from games.live import caps, drain
from games.live.layer_watch import unwatch, watch
from games.live.protocol import LAYER_LOST, SERVICE_RESTART, TOO_MANY, go_html
from games.live.push_threads import off_loop
from games.live.sessions import SESSION_ENDED, SocketSession, ended_code, session_digest
from games.live.sessions import socket_session as session_of
from games.pairing import services
from games.pairing.panels import panel_context
from games.pairing.shown import looking, waiting

logger = logging.getLogger(__name__)

BEAT_SECONDS = 2.0
ENDED = '<template id="pairing-ended"></template>'
"""What tells the page its search ended without a table (stopped in another tab, or let go):
the page then asks for the lobby's "Find a game" forms again."""


@dataclass(frozen=True)
class Beat:
    """What one beat sends: a close code, or HTML (the panel, the table to go to, or the end of
    the search), and the start of the seek it saw."""

    close: int | None = None
    html: str = ""
    since: datetime | None = None
    ended: bool = False


def beat(session: SocketSession, since: datetime | None) -> Beat:
    """The page is still here: its seek kept alive and drawn, or where the search ended."""
    if not session.alive():
        return Beat(close=SESSION_ENDED)
    seek = services.still_here(session.user_id)
    if seek is None:
        url = services.table_since(session.user_id, since) if since is not None else None
        return Beat(html=go_html(url) if url else ENDED, ended=True)
    shown = waiting(seek, looking())
    html = render_to_string("pairing/_waiting.html", panel_context(shown))
    return Beat(html=html, since=seek.created_at)


def asked_since(scope: dict[str, object]) -> datetime | None:
    """When the search the page shows began (its panel's data-since, sent as ?since=): where a
    beat that finds no seek looks for the table the person was seated at since. None if absent
    or garbled. It only ever leads to this person's own table."""
    query = scope.get("query_string")
    raw = parse_qs(query.decode("latin-1") if isinstance(query, bytes) else "").get("since")
    try:
        since = datetime.fromisoformat(raw[0]) if raw else None
    except ValueError:
        return None
    return since if since is None or since.tzinfo is not None else since.replace(tzinfo=UTC)


class PairingConsumer(AsyncWebsocketConsumer):  # type: ignore[misc]  # channels: no stubs
    """Beats while the page waits; follows the person to the table they were seated at."""

    session: SocketSession | None = None
    since: datetime | None = None
    closed: bool = False
    beating: asyncio.Task[None] | None = None
    groups_joined: list[str]

    async def connect(self) -> None:
        self.groups_joined = []
        self.session = session_of(self.scope)
        self.since = asked_since(self.scope)
        if self.session is None:
            await self.accept()
            await self.end(SESSION_ENDED)
            return
        if await caps.refused(self, self.session, caps.PAIRING):  # too many sockets open
            return
        try:
            await self.join()
        except RedisError as error:
            logger.warning("Channel layer down, waiting socket refused: %s", error)
            await self.close()
            return
        await self.accept()
        watch(self)
        drain.opened(self)
        if drain.draining():  # a handshake this stopping process still took: come back elsewhere
            await self.restart()
            return
        self.beating = asyncio.ensure_future(self.beat_forever())

    async def join(self) -> None:
        """Join the person's own group (where their pairing is announced)."""
        assert self.session is not None
        group = user_group(self.session.user_id)
        await self.channel_layer.group_add(group, self.channel_name)
        self.groups_joined = [group]

    async def leave(self) -> None:
        """Leave the group; a failure is harmless (see GameConsumer.leave)."""
        groups, self.groups_joined = self.groups_joined, []
        for group in groups:
            try:
                await self.channel_layer.group_discard(group, self.channel_name)
            except (RedisError, OSError) as error:
                logger.warning("Channel layer down, %s kept a closed socket: %s", group, error)

    async def beat_forever(self) -> None:
        """A beat now and every BEAT_SECONDS until the socket closes."""
        assert self.session is not None
        while not self.closed:
            try:
                done = await off_loop(beat)(self.session, self.since)
            except outages.OUTAGE as error:
                outages.away(error)  # the seek keeps its grace; the next beat tries again
            else:
                if done.close is not None:
                    await self.end(done.close)
                    return
                self.since = done.since or self.since
                await self.send_html(done.html)
                if done.ended:
                    await self.end(1000)
                    return
            await asyncio.sleep(BEAT_SECONDS)

    async def page_go(self, event: dict[str, object]) -> None:
        """A pass seated this person (groups.go_to): the page goes to the table."""
        html = go_html(event.get("url"))
        if html:
            await self.send_html(html)
            await self.end(1000)

    async def session_ended(self, event: dict[str, object]) -> None:
        """This person logged out: close the sockets of that session."""
        if self.session is not None and event.get("session") == session_digest(self.session.key):
            self.session.forget()
            await self.end(SESSION_ENDED)

    async def session_check(self, event: dict[str, object]) -> None:
        """This person's account changed: close the socket if its session no longer holds."""
        if self.session is not None and not await off_loop(self.session.alive)(recheck=True):
            await self.end(SESSION_ENDED)

    async def layer_lost(self, event: dict[str, object]) -> None:
        """The channel layer went away: close (not for good) so the page reconnects."""
        await self.end(LAYER_LOST)

    async def lose(self, why: str) -> None:
        """The layer lost this socket's subscription (live.layer_watch): close to reconnect."""
        await self.end(LAYER_LOST)

    async def rejoin(self) -> None:
        """Redis lost its keys, and with them this socket's group: join it again."""
        if not self.closed:
            try:
                await self.join()
            except RedisError:
                await self.end(LAYER_LOST)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """The waiting page sends nothing: anything it sends closes the socket."""
        await self.end(TOO_MANY)

    async def disconnect(self, code: int) -> None:
        self.closed = True
        unwatch(self)
        drain.closed(self)
        if self.beating is not None:
            self.beating.cancel()
        await self.leave()
        await caps.release(self)

    async def dispatch(self, message: dict[str, object]) -> None:
        """Handle a message; one meant for the person's table pages only (their chat, their
        inbox badge) is not this page's, and is let pass. Like GameConsumer.dispatch, without
        Channels' trip to the one sync thread: this socket reads only in push threads."""
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            return
        try:
            await handler(message)
        except outages.OUTAGE as error:
            outages.away(error)

    async def send_html(self, html: str) -> None:
        """Send unless the socket has closed meanwhile."""
        if self.closed:
            return
        try:
            await self.send(text_data=html)
        except Disconnected:
            self.closed = True

    async def restart(self) -> None:
        """This process is stopping (games/live/drain.py): the page comes back elsewhere."""
        await self.end(SERVICE_RESTART)

    async def end(self, code: int) -> None:
        """Close with this code; nothing is sent after it."""
        if self.closed:
            return
        self.closed = True
        if code == SESSION_ENDED and self.session is not None:
            code = await off_loop(ended_code)(self.session.user_id)
        with contextlib.suppress(Disconnected):
            await self.close(code=code)
