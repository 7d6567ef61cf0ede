"""The long-lived streams' caps (games/live/streams.py) on the sockets' rows: counted per key
and per address over every process, a row whose stream never ran let go once stale, and an
open stream's own look keeps its row counting."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from datetime import timedelta
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.db import OperationalError

from games.live import drain, streams
from games.models import TableSocket
from games.services import presence

pytestmark = pytest.mark.django_db

WAIT = 10.0  # seconds a line may take before the test fails (a failure, never a measure)


class Quiet:
    """A feed that says nothing."""

    def groups(self) -> list[str]:
        return []

    def first(self) -> list[streams.Line]:
        return []

    def heard(self, message: dict[str, object]) -> list[streams.Line]:
        return []

    def beat(self) -> list[streams.Line]:
        return []

    def over(self) -> str:
        return ""


def test_a_key_past_its_cap_is_refused_and_keeps_no_row(settings: Any) -> None:
    settings.STREAMS_PER_KEY = 2
    assert not streams.admit("token:1", None).refusal
    assert not streams.admit("token:1", None).refusal
    refused = streams.admit("token:1", None)
    assert (
        refused.refusal.startswith("Too many open streams for this token") and not refused.channel
    )
    assert TableSocket.objects.count() == 2
    assert not streams.admit("token:2", None).refusal  # another key counts apart


def test_an_address_is_capped_but_this_hosts_own_is_not(settings: Any) -> None:
    settings.STREAMS_PER_ADDRESS = 1
    assert not streams.admit("token:1", "203.0.113.9").refusal
    assert "from your address" in streams.admit("token:2", "203.0.113.9").refusal
    assert not streams.admit("token:3", "127.0.0.1").refusal
    assert not streams.admit("token:4", "127.0.0.1").refusal


def test_a_row_whose_stream_never_ran_stops_counting_and_the_sweep_keeps_off_it(
    settings: Any,
) -> None:
    settings.STREAMS_PER_KEY = 1
    left = streams.admit("token:1", None).channel
    assert streams.admit("token:1", None).refusal
    presence.renew()  # the process's sweep renews its sockets' rows, never a stream's
    stale = TableSocket.objects.get(channel=left).seen_at - timedelta(minutes=5)
    TableSocket.objects.filter(channel=left).update(seen_at=stale)
    presence.renew()
    assert TableSocket.objects.get(channel=left).seen_at == stale
    assert not streams.admit("token:1", None).refusal


def test_an_open_streams_look_renews_its_row(monkeypatch: pytest.MonkeyPatch) -> None:
    channel = streams.admit("token:1", None).channel
    old = TableSocket.objects.get(channel=channel).seen_at - timedelta(minutes=5)
    TableSocket.objects.filter(channel=channel).update(seen_at=old)
    stream = streams.Stream(Quiet(), lambda: "", channel)
    stream.renew_at = 0.0  # due
    assert stream.look() == ("", [])
    assert TableSocket.objects.get(channel=channel).seen_at > old
    assert stream.look() == ("", [])  # not due again at once: no write
    stream.recheck = lambda: "This token was revoked."
    assert stream.look() == ("This token was revoked.", [])


class Saying(Quiet):
    """A feed of one group whose messages each make a line; one message says the database
    went away."""

    def groups(self) -> list[str]:
        return ["stream_test"]

    def heard(self, message: dict[str, object]) -> list[streams.Line]:
        if message.get("away"):
            raise OperationalError("the database went away")
        return [{"type": "heard", "n": message.get("n")}]


async def opened(feed: Quiet) -> tuple[streams.Stream, AsyncIterator[bytes]]:
    """A stream of this feed, read up to its blank line (its groups joined)."""
    channel = await database_sync_to_async(streams.admit)("token:1", None)
    stream = streams.Stream(feed, lambda: "", channel.channel)
    chunks = stream.lines()
    assert await asyncio.wait_for(anext(chunks), WAIT) == b"\n"
    return stream, chunks


async def said(chunks: AsyncIterator[bytes]) -> dict[str, object]:
    """The next line that says something (keep-alives skipped)."""
    while not (chunk := await asyncio.wait_for(anext(chunks), WAIT)).strip():
        pass
    return dict(json.loads(chunk))


async def ended(chunks: AsyncIterator[bytes]) -> bool:
    try:
        await asyncio.wait_for(anext(chunks), WAIT)
    except StopAsyncIteration:
        return True
    return False


@pytest.mark.django_db(transaction=True)
async def test_a_message_makes_lines_and_a_quiet_stream_says_a_blank_line(settings: Any) -> None:
    settings.STREAM_KEEP_ALIVE_SECONDS = 0.05
    _, chunks = await opened(Saying())
    await get_channel_layer().group_send("stream_test", {"type": "x", "n": 1})
    assert await said(chunks) == {"type": "heard", "n": 1}
    assert await asyncio.wait_for(anext(chunks), WAIT) == b"\n"  # nothing more to say


@pytest.mark.django_db(transaction=True)
async def test_a_lost_layer_and_an_away_database_end_the_stream_in_words() -> None:
    _, chunks = await opened(Saying())
    await get_channel_layer().group_send("stream_test", {"type": "layer.lost", "error": "gone"})
    assert await said(chunks) == {"type": "end", "why": streams.LAYER_DOWN}
    assert await ended(chunks)
    _, chunks = await opened(Saying())
    await get_channel_layer().group_send("stream_test", {"type": "x", "away": True})
    assert await said(chunks) == {"type": "end", "why": streams.DATABASE_AWAY}
    assert await ended(chunks)
    assert not await database_sync_to_async(TableSocket.objects.exists)()  # rows let go


@pytest.mark.django_db(transaction=True)
async def test_a_stream_opened_while_draining_ends_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(drain.STATE, "draining", True)
    channel = await database_sync_to_async(streams.admit)("token:1", None)
    chunks = streams.Stream(Quiet(), lambda: "", channel.channel).lines()
    assert await said(chunks) == {"type": "end", "why": streams.RESTARTING}
    assert await ended(chunks) and not drain.STATE.sockets
