"""The API's long-lived streams (NDJSON, games/live/streams.py does their life): the game stream
of one table and the event stream of one account (games/api/events_feed.py).

A stream opens like any operation (the token, its limits and scope), then passes the stream caps
(429 with Retry-After past them). Under ASGI (Daphne) it stays open; under WSGI (a test's or a
tool's client, schemathesis) it sends its first lines and ends, saying so.
"""

from __future__ import annotations

import functools
import math
import threading
import time
from collections.abc import Iterator

from django.conf import settings
from django.core.handlers.asgi import ASGIRequest
from django.db import connection
from django.http import HttpRequest, StreamingHttpResponse
from django.utils import timezone

from accounts import keys
from accounts.client_ip import client_ip
from games.api.auth import token_of
from games.api.errors import Refused
from games.live import streams
from games.live.stream_watch import Recheck
from games.live.streams import Feed

NDJSON_STREAM = {
    "responses": {
        200: {
            "description": "NDJSON, one object a line, each with its `type`; a blank line now "
            'and then while nothing happens; the last line `{"type": "end", "why": ...}` '
            "when the stream can say why it ends (open it again after a restart).",
            "content": {"application/x-ndjson": {"schema": {"type": "string"}}},
        }
    }
}
"""How a stream's answer is described in the schema (the operation returns its own response)."""

WSGI_ONLY = "This server does not stream (WSGI): the first lines only; Daphne streams them all."


GONE = "This token is gone."


class TokenWatch:
    """The tokens of this process's open streams, looked at together: one query every
    STREAM_RECHECK_SECONDS for all of them, not one a stream (200 streams' looks were 67 queries
    a second on the push threads the tables' pushes read on: docs/performance.md, issue 49). A
    token is watched from its stream's opening (`expect`) while its streams ask (until a period
    after the read before the last ask), so a revoked token still ends its streams within two
    periods.

    Each read is of every watched token: a token told at its opening is read with the rest at
    the next read, and one the last read did not find is said gone until the next, never read
    on its own. Before (issue 49, fourth pass), a token not yet read was read at once, with all
    the others, and the watched ones were those asked within two periods of now: the first look
    after 200 openings read the tokens 200 times (200 queries of up to 200 rows, about 2 s of
    CPU), and so did every look that came more than two periods after the one before (a busy
    process), as each ask dropped the others from the watch."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.asked: dict[str, float] = {}
        self.said: dict[str, str] = {}
        self.read_at = -math.inf

    def expect(self, label: str) -> None:
        """A stream of this token (its key's label) opened: its token is read with the others at
        the next read."""
        with self.lock:
            self.asked[label] = time.monotonic()

    def refusal(self, label: str) -> str:
        """Why this token (its key's label: a personal token's or an app's) no longer works (""
        while it does), as last read for every stream; one query a kind of key."""
        period = settings.STREAM_RECHECK_SECONDS
        with self.lock:
            at = time.monotonic()
            self.asked[label] = at
            if at - self.read_at >= period or label not in self.said:
                since = self.read_at - period  # asked around the last read: still watched
                self.asked = {t: when for t, when in self.asked.items() if when >= since}
                self.said = dict.fromkeys(self.asked, GONE)
                self.said.update(keys.refusals(list(self.asked), timezone.now()))
                self.read_at = at
            return self.said[label]


WATCH = TokenWatch()


def token_still(label: str) -> Recheck:
    """Why this token no longer works ("" while it does), from the process's watch (told of
    the token now, as its stream opens)."""
    WATCH.expect(label)
    return functools.partial(WATCH.refusal, label)


def once(feed: Feed, channel: str) -> Iterator[bytes]:
    """A stream under WSGI: its first lines, then its end (its row goes)."""
    try:
        yield from (streams.encoded(line) for line in feed.first())
        yield streams.ending(feed.over() or WSGI_ONLY)
    finally:
        streams.release(channel)


def hand_back_connection() -> None:
    """Give the request's database connection back (to the pool, on PostgreSQL) now: the stream
    reads on the push threads, and Django would keep the request's connection until the stream
    ends (request_finished), so 20 open streams of a process took its pool's 20 connections and
    its pages waited for one, then answered 503 (docs/performance.md, issue 49). Not inside a
    transaction (a test's, or a caller's): that connection stays."""
    if not connection.in_atomic_block:
        connection.close()


def open_stream(
    request: HttpRequest, feed: Feed, game_id: int | None = None
) -> StreamingHttpResponse:
    """The feed as a stream of the request's token, past its caps; Refused (429) beyond them.
    A game stream (`game_id`) keeps the token's person at the table while it is open."""
    token = token_of(request)
    at = {"game_id": game_id, "user_id": token.user_id} if game_id is not None else {}
    admitted = streams.admit(token.label, client_ip(request), **at)
    if admitted.refusal:
        raise Refused(429, admitted.refusal, retry_after=streams.CAPPED_WAIT)
    if isinstance(request, ASGIRequest):
        answer = streams.response(feed, token_still(token.label), admitted.channel)
        hand_back_connection()
        return answer
    answer = StreamingHttpResponse(
        once(feed, admitted.channel), content_type="application/x-ndjson"
    )
    answer["Cache-Control"] = "no-cache"
    return answer
