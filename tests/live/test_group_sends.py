"""groups.send_to_group from wherever code runs: the event loop's own thread, a server thread
of its pool, or a plain thread with no loop (a command, a test)."""

from __future__ import annotations

import asyncio
from typing import Any

from asgiref.sync import async_to_sync, sync_to_async
from channels.layers import get_channel_layer

from games.groups import send_to_group, serve_here, serving_loop

GROUP = "game_424242"
MESSAGE = {"type": "game.updated", "version": 7}


async def joined() -> tuple[Any, str]:
    """The layer and a new channel in GROUP."""
    layer = get_channel_layer()
    channel = await layer.new_channel()
    await layer.group_add(GROUP, channel)
    return layer, channel


async def test_a_send_from_the_event_loops_own_thread_reaches_the_group() -> None:
    """Code called from a coroutine (async_to_sync cannot run on a loop's own thread)."""
    layer, channel = await joined()
    send_to_group(GROUP, MESSAGE)
    assert await asyncio.wait_for(layer.receive(channel), 5) == MESSAGE
    await layer.group_discard(GROUP, channel)


async def test_a_send_from_a_server_thread_and_from_a_plain_thread_reaches_the_group() -> None:
    """A server thread is asgiref's (channels' database_sync_to_async is one that also closes
    old connections first: with no database here, that would depend on what an earlier test left
    in the thread)."""
    serve_here()  # as the site's first ASGI call does on the server's loop
    layer, channel = await joined()
    await sync_to_async(send_to_group)(GROUP, MESSAGE)  # handed to the loop
    assert await asyncio.wait_for(layer.receive(channel), 5) == MESSAGE
    await asyncio.to_thread(send_to_group, GROUP, {**MESSAGE, "version": 8})  # sent there
    assert (await asyncio.wait_for(layer.receive(channel), 5))["version"] == 8
    await layer.group_discard(GROUP, channel)


async def test_a_server_thread_hands_its_send_to_the_serving_loop() -> None:
    """A thread of a serving process sees the loop it hands its sends to."""
    serve_here()
    layer, channel = await joined()
    handed = await sync_to_async(lambda: serving_loop() is not None)()
    assert handed
    await sync_to_async(send_to_group)(GROUP, MESSAGE)
    assert await asyncio.wait_for(layer.receive(channel), 5) == MESSAGE
    await layer.group_discard(GROUP, channel)


def test_without_a_running_server_loop_a_send_is_made_in_place() -> None:
    """A command, or a test with no server: the loop the last server ran on has closed."""

    async def sent_from_a_plain_thread() -> Any:
        layer, channel = await joined()
        await asyncio.to_thread(send_to_group, GROUP, MESSAGE)
        try:
            return await asyncio.wait_for(layer.receive(channel), 5)
        finally:
            await layer.group_discard(GROUP, channel)

    assert serving_loop() is None
    assert async_to_sync(sent_from_a_plain_thread)() == MESSAGE
