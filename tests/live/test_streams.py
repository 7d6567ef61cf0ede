"""The long-lived streams' caps (games/live/streams.py) on the sockets' rows: counted per key
and per address over every process, a row whose stream never ran let go once stale; the
process's watcher of its open streams (one look for them all), and Redis losing their groups."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncGenerator, AsyncIterator, Sequence
from datetime import timedelta
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.db import OperationalError, connection
from django.test.utils import CaptureQueriesContext

from accounts.models import User
from games.live import drain, layer_watch, stream_watch, streams
from games.models import Game, TableSocket
from games.services import presence
from tests.support.clock import Clock

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

    def heal(self) -> stream_watch.Heal:
        return stream_watch.every

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


class Opened:
    """An open stream as the process's watcher sees it (stream_watch.Watched)."""

    def __init__(self, row: str, feed: Quiet, why: str = "") -> None:
        self.row, self.feed, self.why = row, feed, why
        self.told: list[dict[str, object]] = []

    def recheck(self) -> str:
        return self.why

    def tell(self, message: dict[str, object]) -> None:
        self.told.append(message)


def test_the_watchers_look_renews_the_open_streams_rows_and_ends_those_whose_key_went() -> None:
    rows = [streams.admit(f"token:{n}", None).channel for n in range(3)]
    old = TableSocket.objects.get(channel=rows[0]).seen_at - timedelta(minutes=5)
    TableSocket.objects.update(seen_at=old)
    kept, revoked = Opened(rows[0], Quiet()), Opened(rows[1], Quiet(), "This token was revoked.")
    told = stream_watch.look([kept, revoked], renew=True, heal=False)
    assert told == [(revoked, {"type": stream_watch.END, "why": "This token was revoked."})]
    seen = dict(TableSocket.objects.values_list("channel", "seen_at"))
    assert seen[rows[0]] > old  # renewed
    assert seen[rows[1]] == old and seen[rows[2]] == old  # its key gone; a stream never run


class Behind(Quiet):
    """A feed whose kind's heal finds the odd ones behind, in one call for them all."""

    calls: list[int] = []

    def __init__(self, n: int) -> None:
        self.n = n

    def heal(self) -> stream_watch.Heal:
        return odd_ones


def odd_ones(feeds: Sequence[Any]) -> list[bool]:
    Behind.calls.append(len(feeds))
    TableSocket.objects.exists()  # the one read a kind's heal makes
    return [feed.n % 2 == 1 for feed in feeds]


def watched(count: int) -> list[Opened]:
    return [Opened(streams.admit(f"token:{n}", None).channel, Behind(n)) for n in range(count)]


def test_the_watchers_look_costs_as_many_queries_for_thirty_streams_as_for_one() -> None:
    """The per-process batching of issue 49: a key look, a renewal and a heal each read once for
    every stream of the process (the tokens' own read is games/api's, shared the same way)."""
    Behind.calls = []
    one, thirty = watched(1), watched(30)
    with CaptureQueriesContext(connection) as alone:
        stream_watch.look(one, renew=True, heal=True)
    with CaptureQueriesContext(connection) as together:
        told = stream_watch.look(thirty, renew=True, heal=True)
    assert len(together) == len(alone)
    assert Behind.calls == [1, 30]
    beating = [stream for stream, message in told if message["type"] == stream_watch.BEAT]
    assert beating == thirty[1::2]  # the odd ones, as their kind's heal said


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


def sweep_and_read(game_id: int, user_id: int) -> tuple[list[int], str]:
    """The presence sweep (another process's, as after a deploy), then the person's seat."""
    told = presence.sweep()
    return told, presence.read(game_id).status(user_id)


@pytest.mark.django_db(transaction=True)
async def test_a_game_stream_the_drain_ends_keeps_its_person_here_and_frees_its_cap(
    settings: Any, clock: Clock, running_game: Game, player: User
) -> None:
    """As a table socket through a restart (3012): a bot whose stream the drain ended never
    shows "reconnecting…" while it comes back, and its new stream is not refused for the old
    one's row; one that does not come back shows it once the row goes stale."""
    settings.STREAMS_PER_KEY = 1
    at = {"game_id": running_game.pk, "user_id": player.pk}
    admitted = await database_sync_to_async(streams.admit)("token:1", None, **at)
    stream = streams.Stream(Quiet(), lambda: "", admitted.channel)
    chunks = stream.lines()
    assert await asyncio.wait_for(anext(chunks), WAIT) == b"\n"
    await stream.restart()
    assert await said(chunks) == {"type": "end", "why": streams.RESTARTING}
    assert await ended(chunks)
    told, status = await database_sync_to_async(sweep_and_read)(running_game.pk, player.pk)
    assert (told, status) == ([], "here")  # not "dropped": the bot comes back in a moment
    clock.forward(settings.PRESENCE_STALE_SECONDS + 1)
    told, status = await database_sync_to_async(sweep_and_read)(running_game.pk, player.pk)
    assert (told, status) == ([running_game.pk], "dropped")  # it did not come back
    again = await database_sync_to_async(streams.admit)("token:1", None, **at)
    assert again.refusal == ""  # the kept row counts under no cap
    told, status = await database_sync_to_async(sweep_and_read)(running_game.pk, player.pk)
    assert status == "here"


@pytest.mark.django_db(transaction=True)
async def test_a_game_stream_whose_client_went_shows_its_person_reconnecting_at_once(
    running_game: Game, player: User
) -> None:
    at = {"game_id": running_game.pk, "user_id": player.pk}
    admitted = await database_sync_to_async(streams.admit)("token:1", None, **at)
    chunks = streams.Stream(Quiet(), lambda: "", admitted.channel).lines()
    assert await asyncio.wait_for(anext(chunks), WAIT) == b"\n"
    assert isinstance(chunks, AsyncGenerator)
    await chunks.aclose()  # the client went: its row closes, keeping the time
    read = database_sync_to_async(presence.read)
    assert (await read(running_game.pk)).status(player.pk) == "dropped"


class CatchingUp(Saying):
    """A feed of one group whose beat says what it missed."""

    def beat(self) -> list[streams.Line]:
        return [{"type": "caught up"}]


@pytest.mark.django_db(transaction=True)
async def test_the_process_watcher_beats_its_streams_and_ends_one_whose_key_went(
    settings: Any,
) -> None:
    settings.STREAM_RECHECK_SECONDS = 0.05
    _, chunks = await opened(CatchingUp())
    assert await said(chunks) == {"type": "caught up"}  # its kind's heal found it behind
    channel = await database_sync_to_async(streams.admit)("token:2", None)
    gone = streams.Stream(Quiet(), lambda: "This token was revoked.", channel.channel)
    revoked = gone.lines()
    assert await asyncio.wait_for(anext(revoked), WAIT) == b"\n"
    assert await said(revoked) == {"type": "end", "why": "This token was revoked."}
    assert await ended(revoked)


@pytest.mark.usefixtures("core_layer")
@pytest.mark.django_db(transaction=True)
async def test_a_stream_joins_its_groups_again_when_redis_lost_them() -> None:
    stream, chunks = await opened(CatchingUp())
    layer = get_channel_layer()
    await layer.group_discard("stream_test", stream.channel)  # as a restarted Redis
    await layer_watch.rejoin_all(layer)
    assert await said(chunks) == {"type": "caught up"}  # it looks for what it missed
    await layer.group_send("stream_test", {"type": "x", "n": 2})
    assert await said(chunks) == {"type": "heard", "n": 2}
    await stream.lose("Redis pub/sub lost")
    assert await said(chunks) == {"type": "end", "why": streams.LAYER_DOWN}
    assert await ended(chunks)
