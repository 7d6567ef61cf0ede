"""Presence over sockets: each seat shows whether its person is here (any tab), goes away only
after AWAY_SECONDS without a socket, and every seat sees how many watch; changes are pushed.

Time is moved forward by patching the clocks' time; the sweep is called as the worker calls it.
"""

from __future__ import annotations

import asyncio
import re
import time
from datetime import timedelta
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator

from accounts.models import User
from games import services
from games.groups import group_name, serve_here
from games.models import Game, TableSocket
from games.services import presence
from games.services.base import load_state
from tests.conftest import client_for
from tests.support.clock import Clock
from tests.support.sockets import open_board, socket, socket_of

pytestmark = pytest.mark.django_db(transaction=True)


def presence_of(html: str, name: str) -> str:
    """What the table region says of this person's seat ("here", "dropped", "away", "bot")."""
    for line in re.findall(
        r'<li class="table-seat[^"]*" data-presence="(\w+)">(.*?)</li>', html, re.S
    ):
        if f'<span class="player">{name}' in line[1]:
            return str(line[0])
    raise AssertionError(f"no seat line for {name}")


def watching(html: str) -> int:
    found = re.search(r'<span class="watchers">(\d+) watching</span>', html)
    assert found, "no watchers count"
    return int(found.group(1))


async def next_table(ws: WebsocketCommunicator) -> str:
    """The next push that carries the table region."""
    while True:
        html = await ws.receive_from()
        if 'id="region-table"' in html:
            return html


def sweep() -> list[int]:
    """What the worker does every sweep: renew this process's open sockets, announce changes."""
    presence.renew()
    return presence.sweep()


async def test_a_seat_shows_its_person_here_then_reconnecting_then_away(
    clock: Clock, running_game: Game, player: User, rival: User
) -> None:
    theirs = await socket(running_game, rival)
    board = await open_board(theirs)
    assert presence_of(board, "bob") == "here"
    assert presence_of(board, "alice") == "away"
    mine = await socket(running_game, player)
    await open_board(mine)
    assert presence_of(await next_table(theirs), "alice") == "here"
    await mine.disconnect()
    assert presence_of(await next_table(theirs), "alice") == "dropped"
    clock.forward(29)
    assert await database_sync_to_async(sweep)() == []  # a short drop is not a departure
    clock.forward(2)
    assert await database_sync_to_async(sweep)() == [running_game.pk]
    assert presence_of(await next_table(theirs), "alice") == "away"
    await theirs.disconnect()


async def test_any_open_tab_keeps_a_person_here(
    clock: Clock, running_game: Game, player: User, rival: User
) -> None:
    theirs = await socket(running_game, rival)
    await open_board(theirs)
    tabs = [await socket(running_game, player) for _ in range(2)]
    for tab in tabs:
        await open_board(tab)
    await tabs[0].disconnect()
    clock.forward(60)
    await database_sync_to_async(sweep)()
    fresh = await database_sync_to_async(presence.read)(running_game.pk)
    assert fresh.status(player.pk) == "here"
    await tabs[1].disconnect()
    await theirs.disconnect()


async def test_every_seat_sees_how_many_watch(
    running_game: Game, player: User, rival: User, outsider: User
) -> None:
    mine = await socket(running_game, player)
    assert watching(await open_board(mine)) == 0
    watcher = await socket(running_game, outsider)
    await open_board(watcher)
    assert watching(await next_table(mine)) == 1
    guest = await socket(running_game, None)
    await open_board(guest)
    assert watching(await next_table(mine)) == 2
    for ws in (guest, watcher, mine):
        await ws.disconnect()


async def test_a_seat_sees_whom_the_table_waits_for(
    running_game: Game, player: User, rival: User
) -> None:
    mine = await socket(running_game, player)
    board = await open_board(mine)
    waited = re.findall(r'class="table-seat presence-\w+ waited-on[^"]*"', board)
    assert len(waited) == 2  # both bakers choose their first pastry
    engine = running_game.spec.engine
    legal = await database_sync_to_async(
        lambda: engine.legal_actions(
            load_state(running_game), running_game.seats.get(user=rival).position
        )
    )()
    await database_sync_to_async(services.play)(running_game, rival, legal[0], running_game.version)
    pushed = await next_table(mine)
    assert len(re.findall(r"waited-on", pushed)) == 1
    assert "your move" in pushed
    await mine.disconnect()


def dead_process_socket(game: Game, user: User, seen: Any) -> None:
    TableSocket.objects.create(
        game=game, user=user, channel="dead!1", process="dead", open=True, seen_at=seen
    )


async def test_a_process_that_died_does_not_leave_people_here_forever(
    settings: Any, clock: Clock, running_game: Game, player: User
) -> None:
    await database_sync_to_async(dead_process_socket)(running_game, player, clock.at)
    here = await database_sync_to_async(presence.read)(running_game.pk)
    assert here.status(player.pk) == "here"
    clock.forward(settings.PRESENCE_STALE_SECONDS + 1)
    assert await database_sync_to_async(sweep)() == [running_game.pk]  # the dropped socket
    dropped = await database_sync_to_async(presence.read)(running_game.pk)
    assert dropped.status(player.pk) == "dropped"
    clock.forward(settings.AWAY_SECONDS)
    await database_sync_to_async(sweep)()
    gone = await database_sync_to_async(presence.read)(running_game.pk)
    assert gone.status(player.pk) == "away"
    clock.forward(settings.RELAXED_ABSENCE_SECONDS)  # rows are kept as long as that rule reads
    await database_sync_to_async(sweep)()
    assert not await database_sync_to_async(TableSocket.objects.filter(process="dead").exists)()


async def test_a_closed_socket_row_is_marked_with_the_time_it_closed(
    clock: Clock, running_game: Game, player: User
) -> None:
    mine = await socket(running_game, player)
    await open_board(mine)
    clock.forward(5)
    await mine.disconnect()
    row = await database_sync_to_async(TableSocket.objects.get)(game=running_game, user=player)
    assert not row.open and row.seen_at == clock.at
    assert row.seen_at - timedelta(seconds=5) < clock.at


@pytest.mark.django_db
def test_the_page_shows_its_own_viewer_here_before_the_socket_opens(
    running_game: Game, player: User, rival: User
) -> None:
    page = client_for(player).get(running_game.get_absolute_url()).content.decode()
    assert presence_of(page, player.username) == "here"  # whoever reads the page is at the table
    assert presence_of(page, rival.username) == "away"  # no socket of the rival's, ever


async def test_a_presence_push_that_finds_the_game_started_sends_the_whole_board(
    monkeypatch: pytest.MonkeyPatch, open_table: Game, rival: User, outsider: User
) -> None:
    """The race a watcher met in CI: the game starts while a presence change is on its way, and
    the presence push reads the started game first. The lobby on screen has no regions to take
    a diff, so that push must be the whole board (the start's own push then finds nothing new)."""
    await database_sync_to_async(services.join)(open_table, rival)
    ws = await socket(open_table, outsider)
    lobby = await open_board(ws)
    assert "region-counter" not in lobby and 'id="batch-form"' not in lobby
    monkeypatch.setattr("games.services.base.announce", lambda game_id, version: None)
    await database_sync_to_async(services.start)(open_table, open_table.host)
    await database_sync_to_async(presence.announce)(open_table.pk)  # before the start's push
    pushed = await next_table(ws)
    assert pushed.startswith('<div id="board"'), pushed[:200]
    assert 'id="board-diff"' not in pushed
    await ws.disconnect()


async def test_a_sweep_that_comes_late_still_tells_a_departure_once(
    settings: Any, clock: Clock, running_game: Game, player: User, rival: User
) -> None:
    theirs = await socket(running_game, rival)
    await open_board(theirs)
    mine = await socket(running_game, player)
    await open_board(mine)
    assert presence_of(await next_table(theirs), "alice") == "here"
    await mine.disconnect()
    assert presence_of(await next_table(theirs), "alice") == "dropped"
    clock.forward(settings.AWAY_SECONDS * 4)  # the sweeps' threads were busy all that time
    assert await database_sync_to_async(sweep)() == [running_game.pk]
    assert presence_of(await next_table(theirs), "alice") == "away"
    assert await database_sync_to_async(sweep)() == []  # told once
    await theirs.disconnect()


async def test_a_late_sweep_tells_a_dead_processs_people_away_at_once(
    settings: Any, clock: Clock, running_game: Game, player: User
) -> None:
    await database_sync_to_async(dead_process_socket)(running_game, player, clock.at)
    clock.forward(settings.AWAY_SECONDS + 60)  # never seen stale: straight to away
    assert await database_sync_to_async(sweep)() == [running_game.pk]
    row = await database_sync_to_async(TableSocket.objects.get)(process="dead")
    assert row.told == presence.AWAY
    assert await database_sync_to_async(sweep)() == []
    gone = await database_sync_to_async(presence.read)(running_game.pk)
    assert gone.status(player.pk) == "away"


async def test_a_stalled_process_renewing_its_sockets_tells_their_people_here_again(
    settings: Any, clock: Clock, monkeypatch: pytest.MonkeyPatch, running_game: Game, player: User
) -> None:
    told: list[int] = []
    monkeypatch.setattr(presence, "announce", told.append)
    await database_sync_to_async(presence.opened)("mine!1", running_game.pk, player.pk)
    clock.forward(settings.PRESENCE_STALE_SECONDS + 1)  # this process did not renew in time
    await database_sync_to_async(presence.sweep)()  # another process's sweep: dropped
    assert told == [running_game.pk, running_game.pk]
    stale = await database_sync_to_async(presence.read)(running_game.pk)
    assert stale.status(player.pk) == "dropped"
    await database_sync_to_async(presence.renew)()
    assert told == [running_game.pk] * 3
    back = await database_sync_to_async(presence.read)(running_game.pk)
    assert back.status(player.pk) == "here"
    await database_sync_to_async(presence.renew)()
    assert len(told) == 3  # nothing new to tell


TABLE = 10**9  # no table of any test: nothing else is said to its group


async def test_a_tables_presence_changes_are_gathered_into_one_announcement(settings: Any) -> None:
    """Sockets opening one after another (a new game's four people) push each screen once: the
    changes are announced once, stamped after the last, so every socket re-reads them all."""
    settings.PRESENCE_GATHER_SECONDS = 0.5
    serve_here()  # this loop serves, as a Daphne process's does
    layer = get_channel_layer()
    channel = await layer.new_channel()
    await layer.group_add(group_name(TABLE), channel)

    def three_changes() -> float:
        for _ in range(3):
            presence.announce(TABLE)
        return time.time()

    last = await database_sync_to_async(three_changes)()
    told = await asyncio.wait_for(layer.receive(channel), 5)
    assert told["type"] == "presence.changed" and told["stamp"] >= last
    with pytest.raises(TimeoutError):
        await asyncio.wait_for(layer.receive(channel), 2 * settings.PRESENCE_GATHER_SECONDS)


async def test_another_tab_of_a_person_already_here_is_not_announced(
    monkeypatch: pytest.MonkeyPatch, running_game: Game, player: User
) -> None:
    """A session's second socket at a table changes nothing any seat shows (as a page back after
    a restart, while its old row still counts): no screen is pushed for it."""
    announced: list[int] = []
    monkeypatch.setattr(presence, "announce", announced.append)
    client = await database_sync_to_async(client_for)(player)
    first, second = socket_of(running_game, client), socket_of(running_game, client)
    await open_board(first)
    assert announced == [running_game.pk]
    await open_board(second)
    assert announced == [running_game.pk]
    await second.disconnect()
    assert announced == [running_game.pk] * 2  # a closed socket is told: it may have been the last
    await first.disconnect()


async def test_a_restarts_rows_close_quietly_and_whoever_did_not_come_back_drops_later(
    monkeypatch: pytest.MonkeyPatch, settings: Any, clock: Clock, running_game: Game, player: User
) -> None:
    announced: list[int] = []
    monkeypatch.setattr(presence, "announce", announced.append)
    row = {"game": running_game, "user": player, "process": presence.PROCESS, "seen_at": clock.at}
    await database_sync_to_async(TableSocket.objects.create)(channel="old!1", open=True, **row)
    assert await database_sync_to_async(presence.restarted)() == 1
    assert announced == []
    assert (await database_sync_to_async(presence.read)(running_game.pk)).status(player.pk) == (
        "dropped"
    )
    clock.forward(settings.PRESENCE_STALE_SECONDS + 1)
    assert await database_sync_to_async(presence.sweep)() == [running_game.pk]
    assert announced == [running_game.pk]  # told now, once


async def test_a_restart_tells_the_tables_a_guest_watched_once_its_rows_close(
    monkeypatch: pytest.MonkeyPatch, clock: Clock, running_game: Game, player: User
) -> None:
    """Guests count by socket: a guest back on a new socket counted twice until the old row
    closed, so that table is told; a table of signed-in people only is not."""
    announced: list[int] = []
    monkeypatch.setattr(presence, "announce", announced.append)
    other = await database_sync_to_async(services.create_game)(player, "midnight-bakery", 2)
    mine = {"process": presence.PROCESS, "seen_at": clock.at, "open": True}
    await database_sync_to_async(TableSocket.objects.create)(
        channel="guest!1", game=running_game, user=None, **mine
    )
    await database_sync_to_async(TableSocket.objects.create)(
        channel="seat!1", game=other, user=player, **mine
    )
    assert await database_sync_to_async(presence.restarted)() == 2
    assert announced == [running_game.pk]
