"""The open streams of a process looked after together (games/live/streams.py): one watcher a
process (an event loop) that, every STREAM_RECHECK_SECONDS, in one trip to a push thread,

- looks at every stream's key (the API's tokens are read together: games/api/streams.py);
- renews their rows in one write every RENEW_SECONDS (their people stay at their tables);
- every STREAM_HEAL_SECONDS asks each kind of feed which of its streams missed what their groups
  said (one look for all of a kind: a game stream's reads the versions of all their tables; an
  event stream's, their people's deals, ends and notifications, and keeps their seeks);

then tells each stream only what concerns it: to end (its key no longer holds, in words) or to
beat (look for what it missed, in its own turn, so a feed is never read by two threads at once).
Each stream used to do all three on its own, about 0.3 queries a second a stream: 200 streams
doubled a move's database transactions (docs/performance.md, issue 49). Now 200 cost what one
does. The watcher stops when its last stream ends, and starts again with the next.
"""

from __future__ import annotations

import asyncio
import logging
import time
import weakref
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from django.conf import settings

from games import outages
from games.live.push_threads import off_loop
from games.services import presence

logger = logging.getLogger(__name__)

RENEW_SECONDS = 8.0
"""How often the open streams' rows are renewed (well within PRESENCE_STALE_SECONDS): a row
whose stream never ran (its client went while the view still worked: Django drops that
response unread) is never renewed, stops counting once stale, and the presence sweep deletes it
later."""

BEAT = "stream.beat"
"""What a stream is told when it must look for what its groups missed (Feed.beat)."""
END = "stream.end"
"""What a stream is told when it must end, with `why` (a sentence)."""

Message = dict[str, object]
Heal = Callable[[Sequence[Any]], list[bool]]
"""For feeds of one kind, which of them must beat (one read for them all)."""
Recheck = Callable[[], str]
"""Why a stream's key no longer holds ("" while it does): cheap, its reads shared."""


def every(feeds: Sequence[Any]) -> list[bool]:
    """The heal of a kind of feed with no shared look: every one of them beats."""
    return [True] * len(feeds)


class Healing(Protocol):
    def heal(self) -> Heal: ...


class Watched(Protocol):
    """An open stream as the watcher sees it (streams.Stream)."""

    @property
    def row(self) -> str: ...

    @property
    def recheck(self) -> Recheck: ...

    @property
    def feed(self) -> Healing: ...

    def tell(self, message: Message) -> None: ...


def look(streams: Sequence[Watched], renew: bool, heal: bool) -> list[tuple[Watched, Message]]:
    """On a push thread: what each stream must be told, its keys looked at, and, as asked, the
    rows renewed (one write) and each kind of feed's heal (one read a kind)."""
    told: list[tuple[Watched, Message]] = []
    live: list[Watched] = []
    for stream in streams:
        why = stream.recheck()
        if why:
            told.append((stream, {"type": END, "why": why}))
        else:
            live.append(stream)
    if renew and live:
        presence.renew_rows([stream.row for stream in live])
    if heal:
        kinds: dict[Heal, list[Watched]] = {}
        for stream in live:
            kinds.setdefault(stream.feed.heal(), []).append(stream)
        for behind, of_kind in kinds.items():
            due = behind([stream.feed for stream in of_kind])
            told += [
                (stream, {"type": BEAT})
                for stream, beats in zip(of_kind, due, strict=True)
                if beats
            ]
    return told


class Watcher:
    """The watcher of one event loop's open streams."""

    def __init__(self) -> None:
        self.streams: dict[Watched, None] = {}  # in the order they opened
        self.task: asyncio.Task[None] | None = None
        self.renew_at = 0.0
        self.heal_at = 0.0

    async def forever(self) -> None:
        """Every STREAM_RECHECK_SECONDS while a stream is open: the look, then what it told."""
        while self.streams:
            await asyncio.sleep(settings.STREAM_RECHECK_SECONDS)
            streams = list(self.streams)
            if not streams:
                return
            at = time.monotonic()
            renew, heal = at >= self.renew_at, at >= self.heal_at
            try:
                told = await off_loop(look)(streams, renew, heal)
            except outages.OUTAGE as error:  # looked at again next time
                outages.away(error)
                continue
            if renew:
                self.renew_at = at + RENEW_SECONDS
            if heal:
                self.heal_at = at + settings.STREAM_HEAL_SECONDS
            for stream, message in told:
                if stream in self.streams:
                    stream.tell(message)


_watchers: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Watcher] = (
    weakref.WeakKeyDictionary()
)


def watch(stream: Watched) -> None:
    """Look after this open stream (on its event loop) until `unwatch`."""
    loop = asyncio.get_running_loop()
    watcher = _watchers.setdefault(loop, Watcher())
    watcher.streams[stream] = None
    if watcher.task is None or watcher.task.done():
        watcher.task = loop.create_task(watcher.forever())


def unwatch(stream: Watched) -> None:
    """This stream ended."""
    watcher = _watchers.get(asyncio.get_running_loop())
    if watcher is not None:
        watcher.streams.pop(stream, None)
