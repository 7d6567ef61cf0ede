"""A serving process stops without anybody noticing: a deploy mid-evening.

Daphne stops at SIGTERM by cancelling everything it holds: a move in flight is cut off, and every
socket drops without a close frame (1006), which its page takes for an outage and waits out with
its back-off (django/daphne#177: Daphne does not drain). So each serving process handles SIGTERM
and SIGINT itself once its reactor runs (`install`, from games/live/runner.py), and drains:

1. It says so: `/healthz` answers 503 "draining" (games/web/health.py), and every HTTP answer
   from then on carries `Connection: close`, so a proxy or a browser stops reusing its
   connections here (Twisted keeps a connection open unless the request asks otherwise). A
   balancer that checks /healthz itself is given DRAIN_NOTICE_SECONDS to see it while the
   process still serves everything (nginx, which only notices refused connections, needs none).
2. It stops listening: the system refuses a new connection, which a proxy then sends to another
   process (deploy/nginx.conf: `proxy_next_upstream`); a process started beside this one on the
   same port (bakery_site/serve.py) takes every new connection. It closes its idle HTTP
   connections (kept alive between requests), and each busy one once its answer is sent: a
   request that was on its way on one meets a closed connection, and the browser or proxy sends
   it again on a new one (it never reached the application, so it is never made twice).
3. The runner's sweep and periodic jobs stop (the other processes' go on); bot moves under way
   go on, and so do those the moves still made here leave to bots, each game's for a table's
   seats at most (runner.DRAINING_STEPS): a game of bots alone is left to the next
   process's sweep, not played out here.
4. Each socket closes with SERVICE_RESTART once the move or push in hand is sent, one after
   another (DRAIN_CLOSES_PER_SECOND, 20 a second by default): its page comes back at once (with
   a little jitter) to another process, which takes them as they come instead of all in one
   queue, and gets the board as stored. A move a page sent as the close crossed it is still
   made (the page sees it on its new socket). A table's socket keeps its presence row open
   meanwhile, so its seat never shows "dropped" for the second its page takes to come back: the
   rows close together once every socket has (games.services.presence.restarted).
5. It waits, DRAIN_SECONDS at most, for its HTTP connections to close (so no answer is cut
   off), the sockets' closing handshakes and the runner's bot moves, mails and pushes, then
   stops Daphne's reactor.

A second signal stops at once, as Daphne alone would.
"""

from __future__ import annotations

import asyncio
import logging
import signal
import sys
import time
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field
from types import FrameType
from typing import Protocol, cast

from django.conf import settings
from twisted.internet.tcp import Port
from twisted.web.http import HTTPChannel

from games import outages
from games.live.push_threads import off_loop
from games.outages import ASGIApp, Receive, Scope, Send
from games.services import presence

logger = logging.getLogger(__name__)

WAIT_STEP = 0.05  # seconds between two looks at what is still in flight


class Restartable(Protocol):
    """An open socket of this process (the table's, quick pairing's, a tournament's)."""

    async def restart(self) -> None: ...


class Runner(Protocol):
    """What the drain asks of the process's runner (games/live/runner.py)."""

    def quiet(self) -> None: ...

    def idle(self) -> bool: ...

    async def stop(self) -> None: ...


class Reactor(Protocol):
    """Daphne's Twisted reactor, as the drain uses it."""

    def getReaders(self) -> list[object]: ...

    def stop(self) -> None: ...


@dataclass
class Drain:
    """This process's drain: whether it began, and what it waits for."""

    draining: bool = False
    requests: int = 0
    calls: int = 0  # ASGI calls not returned yet, sockets' too: a closed socket's consumer still
    # leaves its groups and marks its presence (presence.closed on a push thread, which hands its
    # announcement to this loop: once the loop stops, that thread waits for good, and the
    # interpreter's exit waits for that thread)
    sockets: weakref.WeakSet[Restartable] = field(default_factory=weakref.WeakSet)
    task: asyncio.Task[None] | None = None


STATE = Drain()


def draining() -> bool:
    """Whether this process is stopping (health says so; new sockets are sent elsewhere)."""
    return STATE.draining


def opened(socket: Restartable) -> None:
    """A socket was accepted; the drain closes it with SERVICE_RESTART."""
    STATE.sockets.add(socket)


def closed(socket: Restartable) -> None:
    """A socket closed."""
    STATE.sockets.discard(socket)


def serve(app: ASGIApp) -> ASGIApp:
    """The ASGI application, counting the HTTP requests in flight and, once draining, answering
    each with `Connection: close`."""

    async def counted(scope: Scope, receive: Receive, send: Send) -> None:
        STATE.calls += 1
        try:
            if scope["type"] != "http":
                await app(scope, receive, send)
                return
            STATE.requests += 1
            try:
                await app(scope, receive, closing(send))
            finally:
                STATE.requests -= 1
        finally:
            STATE.calls -= 1

    return counted


def closing(send: Send) -> Send:
    """`send`, adding `Connection: close` to a response that starts while draining."""

    async def send_closing(message: dict[str, object]) -> None:
        if message["type"] == "http.response.start" and STATE.draining:
            headers = cast("list[tuple[bytes, bytes]]", message.get("headers", []))
            kept = [(name, value) for name, value in headers if name.lower() != b"connection"]
            message = {**message, "headers": [*kept, (b"connection", b"close")]}
        await send(message)

    return send_closing


def install(runner: Runner) -> None:
    """Once Daphne's reactor runs (its own handlers are in place by then): SIGTERM and SIGINT
    drain this process; a second one stops it at once."""
    reactor = cast("Reactor | None", sys.modules.get("twisted.internet.reactor"))
    if reactor is None:
        return
    loop = asyncio.get_running_loop()

    def on_signal(signum: int, frame: FrameType | None) -> None:
        loop.call_soon_threadsafe(begin, reactor, runner)

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)


def begin(reactor: Reactor, runner: Runner) -> None:
    """A stopping signal came: drain, or after a first one, stop now."""
    if STATE.task is not None:
        logger.warning("A second signal while draining: stopping now")
        reactor.stop()
        return
    STATE.task = asyncio.get_running_loop().create_task(drain(reactor, runner))


async def drain(reactor: Reactor, runner: Runner) -> None:
    """Stop taking work, finish what is in hand, close every socket for its page to come back
    elsewhere, then stop the reactor (see the module's docstring)."""
    started = time.monotonic()
    deadline = started + settings.DRAIN_SECONDS
    STATE.draining = True
    await asyncio.sleep(settings.DRAIN_NOTICE_SECONDS)
    stop_listening(reactor)
    patient_closes(reactor, deadline - time.monotonic())
    runner.quiet()
    sockets = list(STATE.sockets)
    logger.warning(
        "Draining: no longer listening; %d sockets close, %d requests in flight",
        len(sockets),
        STATE.requests,
    )
    restarts = await paced_restarts(sockets, deadline - time.monotonic())
    await until(lambda: all(r.done() for r in restarts), deadline)

    def done() -> bool:
        idle = not close_idle(reactor) and STATE.requests == 0
        return idle and not STATE.sockets and STATE.calls == 0 and runner.idle()

    await until(done, deadline)
    await close_rows()
    try:
        await asyncio.wait_for(runner.stop(), max(deadline - time.monotonic(), WAIT_STEP))
    except TimeoutError:
        logger.warning("Draining: the runner's threads outlived DRAIN_SECONDS")
    await until(done, deadline)  # what came while the runner stopped; then stop in this step
    logger.warning(
        "Drained in %.1f s: %d sockets, %d requests, %d HTTP connections left; stopping",
        time.monotonic() - started,
        len(STATE.sockets),
        STATE.requests,
        close_idle(reactor),
    )
    reactor.stop()


def closing_rate(sockets: int, seconds: float) -> float:
    """How many sockets to close a second: DRAIN_CLOSES_PER_SECOND, or more if that would take
    over two thirds of the drain's `seconds` (the rest is for the last ones' closing handshakes,
    and the requests and moves still in hand)."""
    return max(settings.DRAIN_CLOSES_PER_SECOND, sockets / max(seconds * 2 / 3, WAIT_STEP))


async def paced_restarts(sockets: list[Restartable], seconds: float) -> list[asyncio.Task[None]]:
    """Tell the sockets to restart one after another, evenly over time (see closing_rate): their
    pages come back as fast as the next process takes them, not all in the same half second to
    queue there behind each other's handshakes. The sockets not told yet are served as ever."""
    rate = closing_rate(len(sockets), seconds)
    loop = asyncio.get_running_loop()
    began = loop.time()
    restarts: list[asyncio.Task[None]] = []
    for i, socket in enumerate(sockets):
        await asyncio.sleep(max(0.0, began + i / rate - loop.time()))
        restarts.append(asyncio.create_task(socket.restart()))
    return restarts


async def close_rows() -> None:
    """Close the presence rows of the table sockets this drain closed, together and without a
    word to their tables (presence.restarted): their pages are back on other sockets, or will
    be told "dropped" by another process's sweep. A database that is away leaves them to go
    stale, which the sweep tells alike."""
    try:
        closed = await off_loop(presence.restarted)()
    except outages.OUTAGE as error:
        outages.away(error)
        return
    logger.info("Draining: %d presence rows closed", closed)


def stop_listening(reactor: Reactor) -> None:
    """Close every listening port of the reactor (TCP, and Unix sockets, which are TCP ports to
    Twisted); connections already accepted go on."""
    for reader in reactor.getReaders():
        if isinstance(reader, Port):
            reader.stopListening()  # type: ignore[no-untyped-call]  # Twisted: untyped


def patient_closes(reactor: Reactor, seconds: float) -> None:
    """Give each socket's closing handshake the drain's time, not autobahn's 1 s: past it,
    autobahn resets the connection, and a page that had not read the close frame yet (a busy
    browser, a slow network) loses it with the connection and sees 1006: an outage, its
    back-off and 3 s poll instead of a restart."""
    for reader in reactor.getReaders():
        protocol = getattr(reader, "protocol", None)
        if protocol is not None and hasattr(protocol, "closeHandshakeTimeout"):
            protocol.closeHandshakeTimeout = max(seconds, 1.0)


def close_idle(reactor: Reactor) -> int:
    """Close the HTTP connections that hold no request now; how many are left (busy ones, and
    those closing). A socket's connection is no HTTP one: it was handed to the websocket
    protocol at its handshake.

    A connection kept alive between requests must not outlive the process: nginx may send a
    request on it as the process stops, and a post it sent is never sent again (502 to the
    page). Twisted keeps a connection's requests on the HTTPChannel its protocol wraps, under
    a private name (`_GenericHTTPChannelProtocol._channel`, the HTTP/2 switch): there is no
    public way to tell an idle connection from a busy one. Without it (another Twisted), no
    connection is taken for idle: the drain then waits for them to close, DRAIN_SECONDS at most,
    and says how many were left (tests/flows/processes/test_drain.py expects none).
    """
    left = 0
    for reader in reactor.getReaders():
        protocol = getattr(reader, "protocol", None)
        channel = getattr(protocol, "_channel", protocol)
        if isinstance(channel, HTTPChannel):
            if not channel.requests:
                channel.loseConnection()  # type: ignore[no-untyped-call]  # Twisted: untyped
            left += 1
    return left


async def until(done: Callable[[], bool], deadline: float) -> None:
    """Wait until `done()` or the deadline (monotonic seconds), looking every WAIT_STEP."""
    while not done() and time.monotonic() < deadline:
        await asyncio.sleep(WAIT_STEP)
