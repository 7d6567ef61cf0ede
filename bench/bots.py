"""Bot moves after the request: from a person's commit to the bots' moves stored and announced.

`python -m bench.bots`: K tables at once, each one person against bots (Midnight Bakery: three
greedy bots; Cakehalla: one lookahead bot). The runner of games/live/runner.py runs on this loop
as it does in Daphne; each person's move is made in an HTTP thread as a view makes it. Measured per
move: services.play itself (the request), and the time from its return (the commit) to the
announcement of the first bot move and of the last one before a person must move again.
Sizes: BENCH_BOTS_TABLES (`1,10`), BENCH_BOTS_MOVES (12 person moves a table).

The bench's person moves as soon as the bots are done, which a person never does: it waits for
the runner's drive of the table to end first (idle_at). Runner.drive awaits next_deadline after
its last check for a new hint and returns after it, so a hint that comes in that await is lost
and the bots wait for the next sweep (BOT_SWEEP_SECONDS, an hour here: the bench hung there).
"""

from __future__ import annotations

import asyncio
import os
import random
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from bench._site_setup import django_on_a_throwaway_database, human_move, started_table

TABLES = [int(k) for k in os.environ.get("BENCH_BOTS_TABLES", "1,10").split(",")]
MOVES = int(os.environ.get("BENCH_BOTS_MOVES", "12"))
SCENARIOS = [("midnight-bakery", 4, "greedy"), ("cakehalla", 2, "lookahead")]


@dataclass
class Delays:
    """Seconds per person move: the request, then commit to the first and last bot move."""

    request: list[float] = field(default_factory=list)
    first: list[float] = field(default_factory=list)
    last: list[float] = field(default_factory=list)


def ms(values: list[float], q: float) -> str:
    """A quantile of the values in milliseconds."""
    if not values:
        return "-"
    ordered = sorted(values)
    return f"{1000 * ordered[min(len(ordered) - 1, int(q * len(ordered)))]:.1f}"


def person_waits(game_id: int) -> bool:
    """A person must move (or the game is over): the bots have answered."""
    from games import services
    from games.models import Game

    return not services.bot_due(Game.objects.get(pk=game_id))


async def idle_at(runner: Any, game_id: int) -> None:
    """Wait until the runner has no drive of the game under way (see the module's docstring)."""
    while game_id in runner.busy:
        await asyncio.sleep(0.001)


async def drive(kind: str, seats: int, bot: str, seed: int, http: Any, out: Delays) -> None:
    """One table: a person's move, then the bots' answers heard on the group, MOVES times."""
    from channels.db import DatabaseSyncToAsync as sync_to_async
    from channels.layers import get_channel_layer

    from games import groups, services
    from games.live.runner import RUNNER

    def setup() -> Any:
        return started_table(kind, seats, 1, seed, bot)

    table = await sync_to_async(setup, thread_sensitive=False, executor=http)()
    layer = get_channel_layer()
    assert layer is not None
    channel = await layer.new_channel()
    await layer.group_add(groups.group_name(table.game_id), channel)
    rng = random.Random(seed)
    waits = sync_to_async(person_waits, thread_sensitive=False, executor=http)

    def move() -> tuple[float, float, int] | None:
        chosen = human_move(table, rng)
        if chosen is None:
            return None
        user, action, version, _ = chosen
        start = time.perf_counter()
        game = services.play(table.game_id, user, action, version)
        return start, time.perf_counter(), game.version

    await until_people(layer, channel, waits, table.game_id, 0)
    for _ in range(MOVES):
        await idle_at(RUNNER, table.game_id)
        timed = await sync_to_async(move, thread_sensitive=False, executor=http)()
        if timed is None:
            return
        start, committed, version = timed
        out.request.append(committed - start)
        heard = await until_people(layer, channel, waits, table.game_id, version)
        if heard:
            out.first.append(heard[0] - committed)
            out.last.append(heard[-1] - committed)


async def until_people(
    layer: Any, channel: str, waits: Any, game_id: int, after: int
) -> list[float]:
    """The clock at each announcement of a version past `after` until a person must move again.

    The person's own move is announced too; it is not a bot's answer, so it is not counted.
    """
    heard: list[float] = []

    def note(message: dict[str, Any]) -> None:
        if message.get("type") == "game.updated" and message.get("version", 0) > after:
            heard.append(time.perf_counter())

    while not await waits(game_id):
        try:
            message = await asyncio.wait_for(layer.receive(channel), timeout=30)
        except TimeoutError:
            raise RuntimeError(
                f"a bot is due at game {game_id} but nothing was announced in 30 s"
            ) from None
        note(message)
    while True:
        try:
            note(await asyncio.wait_for(layer.receive(channel), timeout=0.001))
        except TimeoutError:
            return heard


async def run(kind: str, seats: int, bot: str, tables: int) -> Delays:
    """K tables driven at once with the runner on this loop."""
    from games.live.runner import RUNNER

    RUNNER.start()
    out = Delays()
    with ThreadPoolExecutor(4, thread_name_prefix="bench-http") as http:
        await asyncio.gather(*(drive(kind, seats, bot, s + 1, http, out) for s in range(tables)))
    await RUNNER.stop()
    return out


def main() -> None:
    """Print the delays for each game and table count."""
    with django_on_a_throwaway_database() as label:
        from django.conf import settings

        settings.BOT_MOVES = "after-commit"
        settings.BOT_SWEEP_SECONDS = 3600
        print(f"bot moves after commit ({label}, in-memory layer, {MOVES} person moves a table)")
        print("tables  game             request p50/p95 ms  first bot p50/p95 ms  last bot p50/p95")
        for kind, seats, bot in SCENARIOS:
            for tables in TABLES:
                d = asyncio.run(run(kind, seats, bot, tables))
                print(
                    f"{tables:>6}  {kind:<15}  {ms(d.request, 0.5):>7} / {ms(d.request, 0.95):<8}"
                    f"  {ms(d.first, 0.5):>8} / {ms(d.first, 0.95):<9}"
                    f"  {ms(d.last, 0.5):>7} / {ms(d.last, 0.95)}   ({len(d.first)} moves)"
                )
        close_pool()


def close_pool() -> None:
    """Close PostgreSQL's connection pool, which the bots' threads filled, before teardown."""
    from django.db import connection

    if getattr(connection, "pool", None) is not None:
        connection.close_pool()  # type: ignore[attr-defined]


if __name__ == "__main__":
    main()
