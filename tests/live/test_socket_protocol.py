"""What a client may send on a table's socket (a resync a second, no flood); the connect race."""

from __future__ import annotations

import json
from typing import Any

import pytest
from autobahn.exception import Disconnected
from channels.db import database_sync_to_async
from django.db.backends.utils import CursorWrapper

from accounts.models import User
from games.boards.shared import TableAt
from games.live import consumer as live_consumer
from games.live import pushes
from games.models import Game
from tests.live.test_consumer import keep_first, pick_for
from tests.support.sockets import closed_with, next_output, open_board, shown_version, socket

pytestmark = pytest.mark.django_db(transaction=True)

TOO_MANY = 4429


def resync(version: int = 0) -> str:
    return json.dumps({"type": "resync", "version": version})


async def test_a_resync_answers_with_the_whole_board_at_its_version(
    running_game: Game, outsider: User
) -> None:
    ws = await socket(running_game, outsider)
    await open_board(ws)
    await ws.send_to(text_data=resync())
    html = await ws.receive_from()
    assert html.startswith('<div id="board"') and shown_version(html) == running_game.version
    await ws.disconnect()


async def test_resyncs_within_a_second_are_served_once_more_a_second_later(
    running_game: Game, player: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(live_consumer, "now", lambda: 1000.0)
    ws = await socket(running_game, player)
    await open_board(ws)
    for _ in range(3):
        await ws.send_to(text_data=resync())
    for _ in range(2):
        assert (await ws.receive_from()).startswith('<div id="board"')
    assert await ws.receive_nothing(timeout=1.5)
    await ws.disconnect()


async def test_a_flood_closes_the_socket(running_game: Game, outsider: User) -> None:
    ws = await socket(running_game, outsider)
    await open_board(ws)
    for _ in range(live_consumer.FLOOD_LIMIT + 1):
        await ws.send_to(text_data=resync())
    assert await closed_with(ws) == TOO_MANY


@pytest.mark.parametrize(
    "message",
    [
        {"text_data": "hello"},
        {"text_data": json.dumps({"type": "resync", "version": 0, "pad": "x" * 4100})},
        {"text_data": json.dumps({"type": "resync", "version": "7"})},
        {"text_data": json.dumps({"type": "play", "action": {}})},
        {"bytes_data": b"\x00\x01"},
    ],
    ids=["not-json", "over-4kb", "version-not-a-number", "play-without-fields", "bytes"],
)
async def test_garbage_closes_the_socket_without_a_board(
    running_game: Game, outsider: User, message: dict[str, Any]
) -> None:
    ws = await socket(running_game, outsider)
    await open_board(ws)
    await ws.send_to(**message)
    assert await next_output(ws) == {"type": "websocket.close", "code": TOO_MANY}


async def test_a_version_committed_between_load_and_join_reaches_the_socket(
    running_game: Game, player: User, rival: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    load = pushes.load_table

    def load_then_move(
        game_id: int, user: Any, invited: list[int]
    ) -> tuple[TableAt, None] | tuple[None, int]:
        table = load(game_id, user, invited)
        keep_first(Game.objects.get(pk=game_id), rival)
        return table

    monkeypatch.setattr(live_consumer, "load_table", load_then_move)
    ws = await socket(running_game, player)
    shown = shown_version(await open_board(ws))
    if shown == running_game.version:  # read before the move: its announcement must follow
        shown = shown_version(await ws.receive_from())
    assert shown == running_game.version + 1
    await ws.disconnect()


async def test_a_push_racing_a_disconnect_is_a_quiet_no_op(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    sent: list[dict[str, Any]] = []

    async def gone(message: dict[str, Any]) -> None:
        sent.append(message)
        raise Disconnected("Attempt to send on a closed protocol")

    table = TableAt(Game(version=2), [], None)
    monkeypatch.setattr(
        pushes, "fresh", lambda game_id, session, version, known=None, stamp=None: table
    )
    monkeypatch.setattr(pushes, "render_whole", lambda game, user, table: ("<div>board</div>", {}))
    consumer = live_consumer.GameConsumer()
    consumer.scope, consumer.game_id, consumer.base_send = {"user": None}, 1, gone
    consumer.init_limits()
    await consumer.dispatch({"type": "game.updated", "version": 2})
    await consumer.dispatch({"type": "game.updated", "version": 3})
    assert consumer.closed and len(sent) == 1


def stored_version(game: Game) -> int:
    game.refresh_from_db()
    return game.version


async def test_every_push_after_a_version_change_carries_that_version(
    running_game: Game, player: User, rival: User, outsider: User
) -> None:
    watchers = [await socket(running_game, user) for user in (player, rival, outsider)]
    for ws in watchers:
        await open_board(ws)
    for step in range(6):
        await database_sync_to_async(pick_for)(running_game, player if step % 2 else rival, step)
        version = await database_sync_to_async(stored_version)(running_game)
        for ws in watchers:
            assert shown_version(await ws.receive_from()) == version, step
    for ws in watchers:
        await ws.disconnect()


async def test_a_socket_reads_the_game_once_on_connect(
    monkeypatch: pytest.MonkeyPatch, running_game: Game, player: User
) -> None:
    reads: list[str] = []
    execute = CursorWrapper.execute

    def count(self: CursorWrapper, sql: str, *args: Any) -> Any:  # on whichever push thread
        if 'FROM "games_game"' in sql:
            reads.append(sql)
        return execute(self, sql, *args)

    ws = await socket(running_game, player)
    monkeypatch.setattr(CursorWrapper, "execute", count)
    assert shown_version(await open_board(ws)) == running_game.version
    monkeypatch.setattr(CursorWrapper, "execute", execute)
    assert len(reads) == 1, reads
    await ws.disconnect()
