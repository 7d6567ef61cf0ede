"""The channel groups: their names, and the one way to send to one.

The platform's sender: nothing else in the site sends to a channel group. The services and the
features tell their typed events (games/events.py: new_version, presence_changed, chat_changed,
game_started, game_finished, inbox_changed, seated, session_changed, tournament_changed,
tournament_chat_changed) and the receivers at the end of this module, connected in
games/wiring.py, say each to the sockets (and the API's streams) that must hear it; the live
path listens on the groups named here. A leaf: it imports no game code.
Messages name a version or a person, never a state or a card.
"""

from __future__ import annotations

import asyncio
import logging
import time
import weakref
from collections.abc import Callable, Iterable
from typing import Protocol, TypeVarTuple

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings

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


def review_group(game_id: int, seat: int) -> str:
    """The channel group of the pages of one seat's review."""
    return f"review_{game_id}_{seat}"


def tournament_group(tournament_id: int) -> str:
    """The channel group of one tournament's pages."""
    return f"tournament_{tournament_id}"


def recheck_sockets(user_id: int) -> None:
    """Ask every open socket of this person to re-check its session (and close if it ended)."""
    send_to_group(user_group(user_id), {"type": "session.check"})


def go_to(user_id: int, url: str) -> None:
    """Send every open page of this person (each socket of theirs: at a table, or waiting for a
    game) to this path of the site: the table quick pairing just seated them at."""
    send_to_group(user_group(user_id), {"type": "page.go", "url": url})


def layer_answers() -> None:
    """Send to the probe's group (/healthz): raises if there is no channel layer, or it is down."""
    layer = get_channel_layer()
    if layer is None:
        raise RuntimeError("no channel layer")
    async_to_sync(layer.group_send)("healthz", {"type": "health.check"})


# --- what each event says to the sockets (games/events.py; connected in games/wiring.py) -------


def new_version_here(sender: object, *, game_id: int, version: int, **kwargs: object) -> None:
    """A table stored a new version: every socket of the table, in every process, hears it."""
    send_to_group(group_name(game_id), {"type": "game.updated", "version": version})


def chat_changed_here(
    sender: object, *, game_id: int, user_id: int | None = None, **kwargs: object
) -> None:
    """A table's chat changed: its sockets (or one person's) redraw their chat."""
    group = group_name(game_id) if user_id is None else user_group(user_id)
    send_to_group(group, {"type": "chat.changed", "game": game_id})


def game_started_here(
    sender: object, *, game_id: int, user_ids: Iterable[int], **kwargs: object
) -> None:
    """A table was dealt: each of its people's own group hears it (their API event streams;
    a page's socket lets it pass)."""
    for user_id in user_ids:
        send_to_group(user_group(user_id), {"type": "game.started", "game": game_id})


def game_finished_here(
    sender: object, *, game_id: int, user_ids: Iterable[int], **kwargs: object
) -> None:
    """A game finished: each of its people's own group hears it (their API event streams)."""
    for user_id in user_ids:
        send_to_group(user_group(user_id), {"type": "game.finished", "game": game_id})


def inbox_changed_here(sender: object, *, user_ids: list[int], **kwargs: object) -> None:
    """These people's unread count may have moved: each open socket of theirs (at any table)
    sends its page the menu's inbox link anew."""
    for user_id in user_ids:
        send_to_group(user_group(user_id), {"type": "notices.changed"})


def seated_here(sender: object, *, user_id: int, url: str, **kwargs: object) -> None:
    """A person was seated at a table: their open pages go there."""
    go_to(user_id, url)


def session_changed_here(sender: object, *, user_ids: list[int], **kwargs: object) -> None:
    """These people's accounts changed: their sockets re-check their session."""
    for user_id in user_ids:
        recheck_sockets(user_id)


def tournament_changed_here(
    sender: object, *, tournament_id: int, version: int | None = None, **kwargs: object
) -> None:
    """A tournament's new version, to its pages (the version only, never standings)."""
    message: dict[str, object] = {"type": "tournament.changed", "version": version}
    send_to_group(tournament_group(tournament_id), message)


def review_progressed_here(sender: object, *, game_id: int, seat: int, **kwargs: object) -> None:
    """A review moved: its pages draw it anew (the news only, never a figure)."""
    send_to_group(review_group(game_id, seat), {"type": "review.progressed"})


def tournament_chat_changed_here(sender: object, *, tournament_id: int, **kwargs: object) -> None:
    """A tournament's chat changed (a line came, or was hidden): each page socket reads the
    lines again if it read them before this moment."""
    message: dict[str, object] = {"type": "tournament.chat", "stamp": time.time()}
    send_to_group(tournament_group(tournament_id), message)


def presence_changed_here(sender: object, *, game_id: int, **kwargs: object) -> None:
    """Tell the table's sockets that its presence changed (they re-read it).

    In a serving process the changes of one table are gathered PRESENCE_GATHER_SECONDS and
    announced once, stamped when sent (after every change gathered), so each socket re-reads the
    presence once for all of them: a table's sockets opening or closing one after another (a new
    game, everyone leaving) push each screen once, not once for every socket. Elsewhere (a command,
    a test's own thread) it is sent at once.
    """
    if settings.PRESENCE_GATHER_SECONDS > 0 and on_serving_loop(gather, game_id):
        return
    send_to_group(group_name(game_id), presence_changed())


def presence_changed() -> dict[str, object]:
    """The message that tells a table's sockets to re-read its presence, stamped now."""
    return {"type": "presence.changed", "stamp": time.time()}


# loop -> the tables whose announcement waits on it (a loop that stops takes its own with it)
_gathering: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, set[int]] = (
    weakref.WeakKeyDictionary()
)


def gather(game_id: int) -> None:
    """On the loop: announce this table's presence once PRESENCE_GATHER_SECONDS from now, unless
    an announcement is already waiting (it is sent after this change, and covers it)."""
    loop = asyncio.get_running_loop()
    waiting = _gathering.setdefault(loop, set())
    if game_id in waiting:
        return
    waiting.add(game_id)
    loop.call_later(settings.PRESENCE_GATHER_SECONDS, announce_gathered, waiting, game_id)


def announce_gathered(waiting: set[int], game_id: int) -> None:
    """On the loop: send the table's gathered presence changes as one."""
    waiting.discard(game_id)
    send_to_group(group_name(game_id), presence_changed())
