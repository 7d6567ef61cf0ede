"""A tournament page's socket (/ws/tournaments/<id>/): the live part first, then each change
as it is committed (a table's end moves the standings), rendered once per process for every
viewer; the chat; the entrant kept "here"; private tournaments refused to outsiders; the
origin, session and message checks of the site's other sockets."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from channels.db import database_sync_to_async

from accounts.models import Block, User
from bakery_site.asgi import application
from games.groups import go_to
from games.tournaments import live, services, shared
from games.tournaments.models import Entrant, Tournament
from games.tournaments.tests.conftest import entered, play_table, rules, running_tables, swept
from tests.conftest import client_for
from tests.support.clock import Clock
from tests.support.sockets import Communicator, closed_with, session_of

pytestmark = pytest.mark.django_db(transaction=True)

Crowd = Callable[[int], list[User]]
LIVE = re.compile(r'<div id="tournament-live" data-version="(\d+)"')


async def page_socket(
    tournament: Tournament,
    user: User | None = None,
    *,
    session: str | None = None,
    origin: bytes = b"http://testserver",
    query: str = "",
) -> Any:
    """The tournament page's socket, logged in as the user (or in this session)."""
    headers = [(b"origin", origin)]
    if session is None and user is not None:
        session = await database_sync_to_async(session_of)(user)
    if session is not None:
        headers.append((b"cookie", f"sessionid={session}".encode()))
    path = f"/ws/tournaments/{tournament.pk}/{query}"
    return Communicator(application, path, headers=headers)


async def opened(ws: Any) -> str:
    """Connect; what the socket sends first."""
    connected, _ = await ws.connect()
    assert connected
    return str(await ws.receive_from())


def version_in(html: str) -> int | None:
    found = LIVE.search(html)
    return int(found.group(1)) if found else None


async def live_part_at_least(ws: Any, version: int) -> str:
    """The first push whose live part is at `version` or later (pushes on their way before it
    are passed over)."""
    while True:
        html = str(await ws.receive_from())
        shown = version_in(html)
        if shown is not None and shown >= version:
            return html


def stored_version(tournament: Tournament) -> int:
    return int(Tournament.objects.values_list("version", flat=True).get(pk=tournament.pk))


async def test_the_socket_sends_the_live_part_your_line_and_the_chat_first(
    clock: Clock, crowd: Crowd
) -> None:
    (person,) = await database_sync_to_async(crowd)(1)
    tournament = await database_sync_to_async(
        lambda: entered(services.create(None, rules(clock)), [person])
    )()
    ws = await page_socket(tournament, person)
    first = await opened(ws)
    assert version_in(first) == await database_sync_to_async(stored_version)(tournament)
    assert '<div id="tournament-you-line">' in first
    assert "You are in, one of 1 entrant so far." in first
    assert '<div id="tournament-chat-log"' in first
    await ws.disconnect()


async def test_a_join_is_pushed_to_a_watching_page(clock: Clock, crowd: Crowd) -> None:
    first, second = await database_sync_to_async(crowd)(2)
    tournament = await database_sync_to_async(
        lambda: entered(services.create(None, rules(clock)), [first])
    )()
    ws = await page_socket(tournament)  # someone not logged in watches
    await opened(ws)
    await database_sync_to_async(services.join)(tournament, second)
    pushed = await live_part_at_least(ws, await database_sync_to_async(stored_version)(tournament))
    assert f">{second.username}</a>" in pushed and "2 in so far" in pushed
    await ws.disconnect()


async def test_the_standings_move_on_the_page_as_a_table_ends(clock: Clock, crowd: Crowd) -> None:
    people = await database_sync_to_async(crowd)(2)

    def started() -> Tournament:
        tournament = entered(services.create(None, rules(clock, seats=2, rounds=2)), people)
        clock.forward(61)
        return swept(tournament)

    tournament = await database_sync_to_async(started)()
    ws = await page_socket(tournament, people[0])
    before = await opened(ws)
    assert "Round <strong>1</strong> of 2" in before and "Your table is ready" in before
    (table,) = await database_sync_to_async(running_tables)(tournament)
    await database_sync_to_async(play_table)(table)  # its end is counted (game_ended) and pushed
    counted = await database_sync_to_async(
        lambda: dict(Entrant.objects.filter(tournament=tournament).values_list("user", "points"))
    )()
    best = max(counted.values())
    # 6 to the winner, or 3 each when the deal (seeded by the game's id) ends in a shared first.
    assert sorted(counted.values()) in ([0, 6], [3, 3])
    while True:  # the count, then the next round's seating: each a version, the newest shown
        pushed = await live_part_at_least(ws, version_in(before) + 1)  # type: ignore[operator]
        if f"<strong>{best:g}</strong>" in pushed:
            break
    row = re.search(r'<tr data-user="(\d+)"', pushed)
    assert row is not None and counted[int(row.group(1))] == best  # the winner leads
    await ws.disconnect()


async def test_viewers_of_one_version_share_one_render(clock: Clock, crowd: Crowd) -> None:
    people = await database_sync_to_async(crowd)(3)
    tournament = await database_sync_to_async(
        lambda: entered(services.create(None, rules(clock)), people[:2])
    )()
    sockets = [await page_socket(tournament, person) for person in people[:2]]
    sockets.append(await page_socket(tournament))
    for ws in sockets:
        await opened(ws)
    shared.render_counts.clear()
    await database_sync_to_async(services.join)(tournament, people[2])
    version = await database_sync_to_async(stored_version)(tournament)
    for ws in sockets:
        await live_part_at_least(ws, version)
    assert shared.render_counts["rendered"] == 1 and shared.render_counts["shared"] == 2
    for ws in sockets:
        await ws.disconnect()


async def test_a_chat_line_is_pushed_but_not_to_someone_who_blocks_its_author(
    clock: Clock, crowd: Crowd
) -> None:
    writer, reader, blocker = await database_sync_to_async(crowd)(3)
    tournament = await database_sync_to_async(
        lambda: entered(services.create(None, rules(clock)), [writer])
    )()
    await database_sync_to_async(Block.objects.create)(blocker=blocker, blocked=writer)
    theirs = await page_socket(tournament, reader)
    mine = await page_socket(tournament, blocker)
    await opened(theirs)
    await opened(mine)
    await database_sync_to_async(services.chat.say)(tournament, writer, "well played <all>")
    pushed = await theirs.receive_from()
    assert pushed.startswith('<div id="tournament-chat-log"')
    assert "well played &lt;all&gt;" in pushed
    pushed = await mine.receive_from()
    assert pushed.startswith('<div id="tournament-chat-log"') and "well played" not in pushed
    await theirs.disconnect()
    await mine.disconnect()


async def test_an_open_page_keeps_its_entrant_here(
    clock: Clock, crowd: Crowd, monkeypatch: pytest.MonkeyPatch
) -> None:
    (person,) = await database_sync_to_async(crowd)(1)
    tournament = await database_sync_to_async(
        lambda: entered(services.create(None, rules(clock, pace="fast")), [person])
    )()
    long_ago = clock() - timedelta(hours=1)

    def seen() -> Any:
        return Entrant.objects.values_list("seen_at", flat=True).get(user=person)

    await database_sync_to_async(Entrant.objects.update)(seen_at=long_ago)
    monkeypatch.setattr(live, "here_seconds", lambda: 0.05)
    ws = await page_socket(tournament, person)
    await opened(ws)
    assert await database_sync_to_async(seen)() > long_ago  # at connect
    await database_sync_to_async(Entrant.objects.update)(seen_at=long_ago)
    for _ in range(600):  # and again on the next beat (waited on, never a fixed sleep)
        if await database_sync_to_async(seen)() > long_ago:
            break
        await asyncio.sleep(0.05)
    assert await database_sync_to_async(seen)() > long_ago
    await ws.disconnect()


def test_the_beat_stays_within_the_away_time(settings: Any) -> None:
    settings.AWAY_SECONDS = 30
    assert live.here_seconds() < settings.AWAY_SECONDS
    settings.AWAY_SECONDS = 300
    assert live.here_seconds() <= 30


async def test_a_private_tournament_is_refused_to_an_outsider_and_open_with_its_link(
    clock: Clock, crowd: Crowd
) -> None:
    maker, guest, outsider = await database_sync_to_async(crowd)(3)
    tournament = await database_sync_to_async(services.create)(maker, rules(clock, private=True))
    for viewer in (outsider, None):
        ws = await page_socket(tournament, viewer)
        await ws.connect()
        assert await closed_with(ws) == 4404

    def invited_session() -> str:
        client = client_for(guest)
        assert client.get(tournament.invite_url).status_code == 200
        return str(client.cookies["sessionid"].value)

    ws = await page_socket(tournament, session=await database_sync_to_async(invited_session)())
    assert version_in(await opened(ws)) is not None
    await ws.disconnect()
    ws = await page_socket(tournament, maker)
    assert version_in(await opened(ws)) is not None
    await ws.disconnect()


async def test_a_missing_tournament_is_refused(crowd: Crowd) -> None:
    ws = Communicator(
        application, "/ws/tournaments/999999/", headers=[(b"origin", b"http://testserver")]
    )
    await ws.connect()
    assert await closed_with(ws) == 4404


async def test_a_page_of_someone_seated_goes_to_their_table(clock: Clock, crowd: Crowd) -> None:
    (person,) = await database_sync_to_async(crowd)(1)
    tournament = await database_sync_to_async(
        lambda: entered(services.create(None, rules(clock)), [person])
    )()
    ws = await page_socket(tournament, person)
    await opened(ws)
    await database_sync_to_async(go_to)(person.pk, "/games/42/")
    assert await ws.receive_from() == '<template id="page-go" data-url="/games/42/"></template>'
    await ws.disconnect()


async def test_the_round_and_page_asked_are_shown_and_garbage_is_the_default(
    clock: Clock, crowd: Crowd
) -> None:
    tournament = await database_sync_to_async(services.create)(None, rules(clock))
    for query in ("?page=2&round=1", "?page=zz&round=-3", "?page=999999999"):
        ws = await page_socket(tournament, query=query)
        assert version_in(await opened(ws)) is not None
        await ws.disconnect()
    assert live.view_of(b"page=2&round=3") == live.View(3, 2)
    assert live.view_of(b"page=x&round=%00") == live.View(None, 1)
