"""A process's drain in one process (games/live/drain.py): what health, answers and sockets do
once it began, and the order of its steps. Real processes stopped by SIGTERM are in
tests/flows/processes/ (test_drain.py, test_table_routing.py) and
tests/e2e/test_deploy_reconnect.py."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.test import Client

from accounts.models import User
from games.live import drain
from games.live.protocol import SERVICE_RESTART
from games.models import Game, TableSocket
from games.outages import Receive, Scope, Send
from tests.live.test_consumer import batch_ids
from tests.support.sockets import next_output, open_board, socket, stored_version

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("fresh_drain")]


@pytest.fixture
def draining(fresh_drain: drain.Drain) -> drain.Drain:
    """This process has begun to drain (as at SIGTERM)."""
    fresh_drain.draining = True
    return fresh_drain


def test_health_says_draining(draining: drain.Drain) -> None:
    answer = Client().get("/healthz")
    assert answer.status_code == 503
    assert answer.json() == {"ok": False, "draining": True}


async def test_answers_close_their_connection_once_draining() -> None:
    sent: list[dict[str, object]] = []

    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        headers = [(b"Connection", b"keep-alive")]
        await send({"type": "http.response.start", "status": 200, "headers": headers})

    async def send(message: dict[str, object]) -> None:
        sent.append(message)

    async def nothing() -> dict[str, object]:
        return {"type": "http.disconnect"}

    served = drain.serve(app)
    await served({"type": "http"}, nothing, send)
    assert sent[-1]["headers"] == [(b"Connection", b"keep-alive")]
    drain.STATE.draining = True
    try:
        await served({"type": "http"}, nothing, send)
    finally:
        drain.STATE.draining = False
    assert sent[-1]["headers"] == [(b"connection", b"close")]
    assert drain.STATE.requests == 0


async def test_a_socket_is_closed_with_3012_and_a_move_crossing_the_close_is_still_made(
    running_game: Game, player: User
) -> None:
    ws = await socket(running_game, player)
    assert (await ws.connect())[0]
    await ws.receive_from()
    version = await database_sync_to_async(stored_version)(running_game)
    (consumer,) = list(drain.STATE.sockets)
    await consumer.restart()
    assert await next_output(ws) == {"type": "websocket.close", "code": SERVICE_RESTART}
    # The page sent its pick before the close reached it: the process still gets it.
    card = (await database_sync_to_async(batch_ids)(running_game, player))[0]
    fields = {"action": json.dumps({"type": "keep", "card": card}), "version": str(version)}
    another = await socket(running_game, player)
    assert (await another.connect())[0]
    await another.receive_from()
    (second,) = [s for s in drain.STATE.sockets if s is not consumer]
    await second.restart()
    await another.send_to(text_data=json.dumps({"type": "play", "fields": fields}))
    assert await next_output(another) == {"type": "websocket.close", "code": SERVICE_RESTART}
    await another.wait()
    assert await database_sync_to_async(stored_version)(running_game) == version + 1


async def test_a_socket_opened_while_draining_is_sent_elsewhere_at_once(
    running_game: Game, player: User, draining: drain.Drain
) -> None:
    ws = await socket(running_game, player)
    assert (await ws.connect())[0]
    assert await next_output(ws) == {"type": "websocket.close", "code": SERVICE_RESTART}
    assert not drain.STATE.sockets


class Reactor:
    """Daphne's reactor as the drain sees it: no listening port here, and stop noted."""

    def __init__(self, steps: list[str]) -> None:
        self.steps = steps

    def getReaders(self) -> list[object]:
        return []

    def stop(self) -> None:
        self.steps.append("reactor stopped")


class Runner:
    """The runner as the drain sees it, noting what is asked of it."""

    def __init__(self, steps: list[str]) -> None:
        self.steps = steps

    def quiet(self) -> None:
        self.steps.append("sweeps stopped")

    def idle(self) -> bool:
        return True

    async def stop(self) -> None:
        self.steps.append("runner stopped")


class Socket:
    def __init__(self, steps: list[str]) -> None:
        self.steps = steps

    async def restart(self) -> None:
        self.steps.append("socket closed")
        drain.closed(self)


async def test_the_drain_closes_sockets_waits_then_stops(settings: object) -> None:
    steps: list[str] = []
    sockets = [Socket(steps), Socket(steps)]
    for each in sockets:
        drain.opened(each)
    try:
        await drain.drain(Reactor(steps), Runner(steps))
    finally:
        drain.STATE.draining = False
    assert steps == [
        "sweeps stopped",
        "socket closed",
        "socket closed",
        "runner stopped",
        "reactor stopped",
    ]
    assert not drain.STATE.sockets


class TimedSocket:
    """A socket noting when (the loop's clock) it was told to restart."""

    def __init__(self, told: list[float]) -> None:
        self.told = told

    async def restart(self) -> None:
        self.told.append(asyncio.get_running_loop().time())


async def test_the_drain_closes_its_sockets_one_after_another(settings: Any) -> None:
    """Closed all at once, a process's pages all came back to the next one in the same half
    second and queued there (docs/performance.md, "A rolling restart"): they are paced. The
    k-th socket is told no sooner than k/rate seconds after the drain began (a lower bound: the
    loop never wakes a sleeper early, however busy the machine)."""
    settings.DRAIN_CLOSES_PER_SECOND = 40
    told: list[float] = []
    loop = asyncio.get_running_loop()
    began = loop.time()
    restarts = await drain.paced_restarts([TimedSocket(told) for _ in range(5)], seconds=15)
    await asyncio.gather(*restarts)
    assert len(told) == 5
    assert all(at >= began + k / 40 - 1e-6 for k, at in enumerate(sorted(told))), told


def test_many_sockets_are_closed_faster_to_fit_the_drains_time(settings: Any) -> None:
    settings.DRAIN_CLOSES_PER_SECOND = 20
    assert drain.closing_rate(100, seconds=15) == 20  # 5 s of the drain's 15
    assert drain.closing_rate(1000, seconds=15) == 100  # 10 s, two thirds of it, not 50


async def test_a_restarted_sockets_presence_row_stays_open_until_the_drain_closes_them(
    running_game: Game, player: User, rival: User
) -> None:
    """The seat shows "here" while its page comes back; the drain closes the rows in one go."""
    ws = await socket(running_game, player)
    await open_board(ws)
    (consumer,) = list(drain.STATE.sockets)
    await consumer.restart()
    assert await next_output(ws) == {"type": "websocket.close", "code": SERVICE_RESTART}
    await ws.wait()  # the consumer's disconnect has run
    row = await database_sync_to_async(TableSocket.objects.get)(game=running_game, user=player)
    assert row.open
    await drain.close_rows()
    row = await database_sync_to_async(TableSocket.objects.get)(pk=row.pk)
    assert not row.open and row.told == "here"
