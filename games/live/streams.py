"""Long-lived HTTP streams: one response of NDJSON lines that stays open, for programs (the API's
game and event streams, games/api/streams.py), living the platform's life as the sockets do
(games/live/socket.py).

A stream is a `Feed` (its groups, its first lines, the lines each message of its groups makes)
and a key (an API token) that is looked at again while it is open. The platform does the rest,
once for every stream:

- its caps, before the response starts (`admit`): STREAMS_PER_KEY open streams of one key and
  STREAMS_PER_ADDRESS of one client address over every process, counted on the sockets' rows
  (games.models.TableSocket, place STREAM_PLACE, each renewed by its own stream every
  RENEW_SECONDS, so a dead process's streams, or a row whose stream never ran, stop counting);
- it joins the feed's channel groups on a channel of its own (a layer that is down ends it at
  once: the client comes back), reads the feed's first lines, sends a blank line (from here on
  the client misses nothing), the first lines, then each message's lines;
- a blank line every STREAM_KEEP_ALIVE_SECONDS while nothing else is said (proxies and clients
  see it alive; NDJSON readers skip blank lines);
- the key looked at every STREAM_RECHECK_SECONDS (a revoked or expired token ends its streams),
  its row renewed every RENEW_SECONDS, and every STREAM_HEAL_SECONDS a look for what its groups
  missed (as a page's poll heals its socket): all three for every open stream of the process at
  once, by one watcher (games/live/stream_watch.py), which tells a stream only what concerns it;
- when Redis lost its groups (games/live/layer_watch.py, as for the sockets) it joins them again
  and looks for what it missed; when the pub/sub layer lost its subscriptions it ends in words;
- the drain (games/live/drain.py) ends it as it closes the sockets: a last line says the server
  restarts, and the client that opens it again (on another process) gets the full state first;
  a game stream's row is kept open meanwhile, as a table socket's is (`restarted`), so a bot
  that comes back within PRESENCE_STALE_SECONDS never shows "reconnecting…";
- a database or a channel layer that goes away ends it with a sentence (the client comes back
  and gets the full state again);
- on any end it leaves its groups, and on any but the drain's its row (a game stream's row is
  closed, keeping its person at the table a while, as a closed socket's does).

Each stream ends with a last line `{"type": "end", "why": "<a sentence>"}` when it can say why.
Sync work (the feed's reads, the watcher's looks) runs on the push threads (push_threads.off_loop).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import uuid
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import Any, Protocol

from channels.layers import get_channel_layer
from django.conf import settings
from django.db.models import Count, Q
from django.http import StreamingHttpResponse
from django.utils.encoding import force_str
from redis.exceptions import RedisError

from games import outages
from games.live import drain, layer_watch, stream_watch
from games.live.caps import loopback
from games.live.push_threads import off_loop
from games.live.stream_watch import BEAT, END, Heal, Message, Recheck
from games.models import TableSocket
from games.services import clocks, presence

logger = logging.getLogger(__name__)

STREAM_PLACE = "stream"
"""The place of a stream's row among the sockets' rows (counted apart from every page's)."""

Line = dict[str, object]
Said = Line | bytes
"""What a feed says, a line at a time: an object, or its NDJSON line already made (one a
process shares between the streams that say the same thing: games/api/game_stream.py)."""

RESTARTING = "The server restarts: open the stream again for the full state."
LAYER_DOWN = "The live service is away: open the stream again in a moment."
DATABASE_AWAY = "The database is away: open the stream again in a moment."
TOO_MANY_OF_KEY = "Too many open streams for this token: at most {cap}; close one first."
TOO_MANY_OF_ADDRESS = "Too many open streams from your address: at most {cap}; close one first."
ROWS_PROCESS = "streams:" + hashlib.sha256(presence.PROCESS.encode()).hexdigest()[:32]
"""The process name of this process's stream rows: not presence.PROCESS, whose open rows its
sweep renews (a stream renews its own, so a row left by a stream that never ran goes stale)."""
CAPPED_WAIT = 10
"""The Retry-After of a stream refused by a cap, in seconds: a closed stream's row goes at once."""


class Feed(Protocol):
    """What one stream says. Its methods run on a push thread (they may read the database)."""

    def groups(self) -> list[str]:
        """The channel groups whose messages this stream hears."""
        ...

    def first(self) -> Sequence[Said]:
        """The lines sent first (the full state), read after the groups are joined."""
        ...

    def heard(self, message: dict[str, object]) -> Sequence[Said]:
        """The lines a message of its groups makes (none: nothing to say)."""
        ...

    def beat(self) -> Sequence[Said]:
        """The lines of what the groups' messages missed (a change made where the channel layer
        does not reach: another process on an in-memory layer, a command; a message lost while
        Redis was away), when its kind's `heal` says it missed something or its groups were
        joined again, as a page's poll heals its socket."""
        ...

    def heal(self) -> Heal:
        """The look that finds, for every open feed of its kind in the process at once, which of
        them must `beat` (one read for them all, every STREAM_HEAL_SECONDS): the same function
        for every feed of a kind (stream_watch.every: all of them)."""
        ...

    def over(self) -> str:
        """Why the stream is over after what it said ("" while it goes on): what `first` and
        `heard` found, kept (this one runs on the loop, and reads nothing)."""
        ...


# --- the caps ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Admitted:
    """A stream's row (its channel name) or, past a cap, the sentence that refuses it."""

    channel: str = ""
    refusal: str = ""


def digest(words: str) -> str:
    """A short digest, as the sockets' rows keep owners and addresses."""
    return hashlib.sha256(words.encode()).hexdigest()[:32]


def admit(
    key: str, address: str | None, game_id: int | None = None, user_id: int | None = None
) -> Admitted:
    """A row for a new stream of this key from this address, unless one of them is past its cap.
    The row is written before the count (as caps.admit), so two streams opening at once in two
    processes each count the other. A game stream's row is at its table, with its person: while
    it is open they are here, as a page's socket keeps its person (a bot account at its table
    is not away), and the table is told."""
    channel = f"stream.{uuid.uuid4().hex}"
    owner = "key:" + digest(key)
    at_address = "" if address is None or loopback(address) else "addr:" + digest(address)
    TableSocket.objects.create(
        channel=channel,
        place=STREAM_PLACE,
        process=ROWS_PROCESS,
        open=True,
        seen_at=clocks.now(),
        told=presence.HERE,
        owner=owner,
        address=at_address,
        game_id=game_id,
        user_id=user_id,
    )
    live_since = clocks.now() - timedelta(seconds=settings.PRESENCE_STALE_SECONDS)
    rows = TableSocket.objects.filter(place=STREAM_PLACE, open=True, seen_at__gte=live_since)
    of_address = Q(address=at_address) if at_address else Q(pk__in=[])
    counted = rows.filter(Q(owner=owner) | of_address).aggregate(
        key=Count("pk", filter=Q(owner=owner)), address=Count("pk", filter=of_address)
    )
    refusal = ""
    if counted["key"] > settings.STREAMS_PER_KEY:
        refusal = TOO_MANY_OF_KEY.format(cap=settings.STREAMS_PER_KEY)
    elif counted["address"] > settings.STREAMS_PER_ADDRESS:
        refusal = TOO_MANY_OF_ADDRESS.format(cap=settings.STREAMS_PER_ADDRESS)
    if refusal:
        TableSocket.objects.filter(channel=channel).delete()
        return Admitted(refusal=refusal)
    if game_id is not None:
        presence.arrived(game_id, user_id, again=False)
    return Admitted(channel=channel)


def release(channel: str) -> None:
    """The stream ended: its row goes; a game stream's is closed, keeping the time, so its
    person stays here a while (a client that opens it again at once was never away), and
    the table is told."""
    rows = TableSocket.objects.filter(channel=channel, place=STREAM_PLACE)
    game_id = rows.values_list("game_id", flat=True).first()
    if game_id is None:
        rows.delete()
    else:
        presence.closed(channel, game_id)


def restarted(channel: str) -> None:
    """The stream ended for the drain: its client opens it again at once, on another process.
    A game stream's row stays open and its table is told nothing, as a table socket's through a
    restart (presence.restarted: 3012), so its person never shows "reconnecting…" for the
    moment the client takes to come back. Seen now and no longer renewed, it goes stale after
    PRESENCE_STALE_SECONDS, and only then does the sweep tell "dropped", if nobody came back.
    It counts under no cap any more (its owner and address cleared): the client's new stream
    is never refused for it. Any other stream's row goes."""
    rows = TableSocket.objects.filter(channel=channel, place=STREAM_PLACE)
    kept = rows.filter(game__isnull=False).update(owner="", address="", seen_at=clocks.now())
    if not kept:
        rows.delete()


# --- one stream -------------------------------------------------------------------------------


def encoded(line: Said) -> bytes:
    """One NDJSON line (a line already made is as it is)."""
    if isinstance(line, bytes):
        return line
    return json.dumps(line, separators=(",", ":"), default=force_str).encode() + b"\n"


def ending(why: str) -> bytes:
    """The stream's last line."""
    return encoded({"type": "end", "why": why})


class Stream:
    """One open stream: what the drain closes (drain.Restartable), what the layer's watch joins
    to its groups again (layer_watch.Rejoining), what the process's watcher tells
    (stream_watch.Watched), and what the response reads."""

    def __init__(self, feed: Feed, recheck: Recheck, channel: str) -> None:
        self.feed = feed
        self.recheck = recheck
        self.row = channel
        self.stopping = asyncio.Event()
        self.told: asyncio.Queue[Message] = asyncio.Queue()
        self.channel_layer: Any = None
        self.channel = ""
        self.joined: list[str] = []
        self.closed = False
        self.restarting = False  # it ends for the drain: its row is kept (`restarted`)

    def tell(self, message: Message) -> None:
        """Something the platform says to this stream (stream_watch.BEAT, stream_watch.END),
        read in its turn with its groups' messages."""
        self.told.put_nowait(message)

    async def restart(self) -> None:
        """This process is stopping (games/live/drain.py): end after the line in hand."""
        self.stopping.set()

    async def rejoin(self) -> None:
        """Redis lost its keys, and with them this stream's groups (games/live/layer_watch.py):
        join them again, then look for what was said meanwhile."""
        if self.closed:
            return
        try:
            for group in self.joined:
                await self.channel_layer.group_add(group, self.channel)
        except (RedisError, OSError) as error:
            logger.warning("Channel layer down, a stream could not rejoin: %s", error)
            self.tell({"type": END, "why": LAYER_DOWN})
            return
        self.tell({"type": BEAT})

    async def lose(self, why: str) -> None:
        """The pub/sub layer lost this process's subscriptions (games/live/layer_watch.py)."""
        logger.warning("Channel layer down, a stream ended: %s", why)
        self.tell({"type": END, "why": LAYER_DOWN})

    async def lines(self) -> AsyncIterator[bytes]:
        """The stream's lines until it ends; its groups and row go however it ends."""
        layer = self.channel_layer = get_channel_layer()
        drain.opened(self)
        try:
            if drain.draining():
                self.restarting = True
                yield ending(RESTARTING)
                return
            try:
                self.channel = await layer.new_channel("stream.")
                for group in await off_loop(self.feed.groups)():
                    await layer.group_add(group, self.channel)
                    self.joined.append(group)
            except Exception as error:  # the layer is down: the client comes back
                logger.warning("Channel layer down, a stream ended: %s", error)
                yield ending(LAYER_DOWN)
                return
            layer_watch.watch(self)
            stream_watch.watch(self)
            try:
                first = await off_loop(self.feed.first)()  # read once the groups hear
                yield b"\n"  # from here on the client misses nothing
                for line in first:
                    yield encoded(line)
                async for chunk in self.heard(layer):
                    yield chunk
            except outages.OUTAGE as error:
                outages.away(error)
                yield ending(DATABASE_AWAY)
        finally:
            self.closed = True
            stream_watch.unwatch(self)
            layer_watch.unwatch(self)
            drain.closed(self)
            await self.leave(layer)

    async def heard(self, layer: Any) -> AsyncIterator[bytes]:
        """After the first lines: the lines of each message of its groups and of what the
        platform tells it, and the keep-alives, until the feed is over, the key no longer holds,
        the layer is lost or the drain says so."""
        loop = asyncio.get_running_loop()
        quiet_until = loop.time() + settings.STREAM_KEEP_ALIVE_SECONDS
        stopping = asyncio.ensure_future(self.stopping.wait())
        receiving: asyncio.Future[Message] | None = None
        telling: asyncio.Future[Message] | None = None
        try:
            while True:
                why = self.feed.over()
                if why:
                    yield ending(why)
                    return
                if receiving is None:
                    receiving = asyncio.ensure_future(layer.receive(self.channel))
                if telling is None:
                    telling = asyncio.ensure_future(self.told.get())
                wait = max(0.0, quiet_until - loop.time())
                await asyncio.wait(
                    {receiving, telling, stopping}, timeout=wait, return_when="FIRST_COMPLETED"
                )
                if stopping.done():
                    self.restarting = True
                    yield ending(RESTARTING)
                    return
                said: list[Said] = []
                if telling.done():
                    message, telling = telling.result(), None
                    if message.get("type") == END:
                        yield ending(str(message.get("why", "")))
                        return
                    said += await off_loop(self.feed.beat)()
                if receiving.done():
                    message, receiving = receiving.result(), None
                    if message.get("type") == "layer.lost":  # channel_layer.py: Redis is away
                        yield ending(LAYER_DOWN)
                        return
                    said += await off_loop(self.feed.heard)(message)
                for line in said:
                    yield encoded(line)
                if said:
                    quiet_until = loop.time() + settings.STREAM_KEEP_ALIVE_SECONDS
                if loop.time() >= quiet_until:
                    yield b"\n"
                    quiet_until = loop.time() + settings.STREAM_KEEP_ALIVE_SECONDS
        finally:
            for task in (stopping, receiving, telling):
                if task is not None:
                    task.cancel()

    async def leave(self, layer: Any) -> None:
        """Leave the groups and let the row go; a failure is logged, never raised (a group kept
        by mistake only queues messages that expire unread)."""
        for group in self.joined:
            try:
                await layer.group_discard(group, self.channel)
            except Exception as error:
                logger.warning("Channel layer down, %s kept an ended stream: %s", group, error)
        self.joined = []
        with contextlib.suppress(Exception):
            await off_loop(restarted if self.restarting else release)(self.row)


def response(feed: Feed, recheck: Recheck, channel: str) -> StreamingHttpResponse:
    """The streaming response of an admitted stream (its row's channel from `admit`): NDJSON,
    never cached, never buffered by a proxy (nginx reads X-Accel-Buffering)."""
    stream = Stream(feed, recheck, channel)
    answer = StreamingHttpResponse(stream.lines(), content_type="application/x-ndjson")
    answer["Cache-Control"] = "no-cache"
    answer["X-Accel-Buffering"] = "no"
    return answer
