"""The channel groups: their names, and the one way to send to one (how the services announce).

A leaf: the services send through it, the live path listens on the groups it names. Messages
name a version or a person, never a state or a card.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Protocol, TypeVarTuple

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

logger = logging.getLogger(__name__)
Ts = TypeVarTuple("Ts")


def group_name(game_id: int) -> str:
    """The channel group of one table."""
    return f"game_{game_id}"


def send_to_group(group: str, message: dict[str, object]) -> None:
    """Send to a channel group; a layer that is down is logged, never raised (sockets resync).

    From a thread of a serving process (a socket's push thread, a request's thread), the send is
    handed to the server's event loop and not waited for: the thread goes on (a move's answer is
    drawn at once) instead of holding a thread of its pool while the loop gets round to Redis.
    On an event loop's own thread it is sent in a task of that loop (async_to_sync cannot run
    there). Anywhere else (a command, a test's own thread) it is sent before this returns.
    """
    layer = get_channel_layer()
    if layer is None:
        return
    if on_serving_loop(_send_soon, layer, group, message):
        return
    if running_here():
        _send_soon(layer, group, message)
        return
    try:
        async_to_sync(layer.group_send)(group, message)
    except Exception as error:
        logger.warning("Channel layer down, %s to %s not sent: %s", message["type"], group, error)


def running_here() -> bool:
    """Whether this thread is running an event loop (code called from a coroutine)."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


_serving: asyncio.AbstractEventLoop | None = None


def serve_here() -> None:
    """Called on the server's event loop (each ASGI call, games.live.runner.serve): the sends of
    this process's other threads are handed to it."""
    global _serving
    _serving = asyncio.get_running_loop()


def serving_loop() -> asyncio.AbstractEventLoop | None:
    """The server's event loop while it runs, or None (a command, a test without a server)."""
    loop = _serving
    return loop if loop is not None and loop.is_running() and not loop.is_closed() else None


def on_serving_loop(callback: Callable[[*Ts], object], *args: *Ts) -> bool:
    """Hand `callback(*args)` to the server's loop (not waited for): whether it was handed (False
    in a command or a test without a server, or if the loop closed meanwhile)."""
    loop = serving_loop()
    if loop is None:
        return False
    try:
        loop.call_soon_threadsafe(callback, *args)
    except RuntimeError:  # the loop closed meanwhile
        return False
    return True


class GroupSender(Protocol):
    """A channel layer, as far as a send to a group goes."""

    async def group_send(self, group: str, message: dict[str, object]) -> None: ...


_sending: set[asyncio.Task[None]] = set()  # held until done (the loop keeps tasks only weakly)


def _send_soon(layer: GroupSender, group: str, message: dict[str, object]) -> None:
    """On the loop: send the message in a task of its own."""
    task = asyncio.get_running_loop().create_task(_send(layer, group, message))
    _sending.add(task)
    task.add_done_callback(_sending.discard)


async def _send(layer: GroupSender, group: str, message: dict[str, object]) -> None:
    """Send; a layer that is down is logged (the pages heal by resync or their poll)."""
    try:
        await layer.group_send(group, message)
    except Exception as error:
        logger.warning("Channel layer down, %s to %s not sent: %s", message["type"], group, error)


def user_group(user_id: int) -> str:
    """The channel group of one person's open sockets, at every table."""
    return f"user_{user_id}"


def recheck_sockets(user_id: int) -> None:
    """Ask every open socket of this person to re-check its session (and close if it ended)."""
    send_to_group(user_group(user_id), {"type": "session.check"})


def go_to(user_id: int, url: str) -> None:
    """Send every open page of this person (each socket of theirs: at a table, or waiting for a
    game) to this path of the site: the table quick pairing just seated them at."""
    send_to_group(user_group(user_id), {"type": "page.go", "url": url})
