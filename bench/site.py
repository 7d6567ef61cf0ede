"""The site's speed: queries and time per play, board renders, move-to-screen latency, memory.

Runs in-process on a throwaway database (bench/_site_setup.py) with the in-memory channel layer.
Sizes come from environment variables (BENCH_SITE_*), so a slower or faster machine can adjust.
"""

from __future__ import annotations

import asyncio
import gc
import os
import random
import statistics
import sys
import time
import tracemalloc
from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from bench._site_setup import (
    ConsumerWork,
    QueryCounter,
    Table,
    bare_socket,
    communicator,
    consumer_work,
    django_on_a_throwaway_database,
    http_thread,
    human_move,
    played,
    run_as_view,
    session_cookie,
    started_table,
)


def env_int(name: str, default: int) -> int:
    """An integer size from the environment."""
    return int(os.environ.get(name, default))


RUNS = env_int("BENCH_SITE_RUNS", 3)
RENDERS = env_int("BENCH_SITE_RENDERS", 15)


def env_ints(name: str, default: str) -> tuple[int, ...]:
    """Comma-separated integers from the environment (empty for none)."""
    return tuple(int(k) for k in os.environ.get(name, default).split(",") if k.strip())


LIVE_TABLES = env_ints("BENCH_SITE_TABLES", "1,10,50")
PACED_TABLES = env_ints("BENCH_SITE_PACED_TABLES", "50")
LIVE_MOVES = env_int("BENCH_SITE_MOVES", 30)
THINK_MS = env_int("BENCH_SITE_THINK_MS", 2000)
MEMORY_PLAYERS = env_int("BENCH_SITE_PLAYERS", 20)
SOCKET_TIMEOUT = 60.0


@dataclass(frozen=True)
class Scenario:
    """A kind of table: its game, seats, and how many of them are people (the rest greedy bots)."""

    label: str
    kind: str
    seats: int
    humans: int


SCENARIOS = (
    Scenario("Midnight Bakery, 2 people + owl", "midnight-bakery", 2, 2),
    Scenario("Midnight Bakery, 2 people + 3 greedy", "midnight-bakery", 5, 2),
    Scenario("Cakehalla, person vs greedy", "cakehalla", 2, 1),
)
MB_TABLE, _, CAKEHALLA_TABLE = SCENARIOS


def ms(seconds: float) -> str:
    """Seconds as milliseconds for the tables."""
    return f"{seconds * 1000:.1f}"


def p95(values: Sequence[float]) -> float:
    """The 95th percentile (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def print_table(head: Sequence[str], rows: Sequence[Sequence[str]]) -> None:
    """A plain aligned table: first column left, the others right."""
    widths = [max(len(str(r[i])) for r in [head, *rows]) for i in range(len(head))]
    for row in [head, *rows]:
        cells = [
            str(c).ljust(w) if i == 0 else str(c).rjust(w)
            for i, (c, w) in enumerate(zip(row, widths, strict=True))
        ]
        print("  ".join(cells).rstrip())


# --- queries and time per play ------------------------------------------------------------


@dataclass
class Play:
    """One services.play: Action rows before it, its queries, seconds, and if it ended the game."""

    moves: int
    queries: int
    seconds: float
    cpu: float
    final: bool


def play_a_game(scenario: Scenario, seed: int) -> list[Play]:
    """A whole game of random human moves through services.play, each counted and timed."""
    from django.db import connection

    from games import services
    from games.models import Game

    table = started_table(scenario.kind, scenario.seats, scenario.humans, seed)
    rng = random.Random(seed)
    plays = []
    while (move := human_move(table, rng)) is not None:
        user, action, version, moves = move
        counter = QueryCounter()
        with connection.execute_wrapper(counter):
            start, cpu = time.perf_counter(), time.thread_time()
            services.play(table.game_id, user, action, version)
            took, cpu = time.perf_counter() - start, time.thread_time() - cpu
        over = Game.objects.filter(pk=table.game_id, status=Game.Status.OVER).exists()
        plays.append(Play(moves, counter.count, took, cpu, over))
    return plays


def queries_at(plays: Sequence[Play], move: int) -> str:
    """The queries of the first ordinary play at or after that move (and the move it was)."""
    ordinary = [p for p in plays if not p.final]
    chosen = next((p for p in ordinary if p.moves >= move), ordinary[-1])
    return f"{chosen.queries} (move {chosen.moves})"


def report_plays() -> None:
    """Queries early, late and at the end of a game, and the median time per play."""
    rows = []
    for scenario in SCENARIOS:
        games = [run_as_view(play_a_game, scenario, seed) for seed in range(1, RUNS + 1)]
        plays = [p for game in games for p in game]
        ordinary = sorted({p.queries for p in plays if not p.final})
        finals = sorted({p.queries for p in plays if p.final})
        median = statistics.median(statistics.median(p.seconds for p in g) for g in games)
        cpu = statistics.median(statistics.median(p.cpu for p in g) for g in games)
        longest = max(games, key=lambda g: g[-1].moves)
        rows.append(
            [
                scenario.label,
                str(round(statistics.median(len(g) for g in games))),
                queries_at(longest, 5),
                queries_at(longest, 100),
                ",".join(map(str, ordinary)),
                ",".join(map(str, finals)),
                ms(median),
                ms(p95([p.seconds for p in plays])),
                ms(cpu),
            ]
        )
    print(
        f"\nservices.play, called as a view calls it (random human moves, whole games; median "
        f"of {RUNS} games).\nQueries early/late: the first play at or after move 5 and move 100 "
        "(or the last before the end);\nall counts: every play but the last; CPU: this thread's, "
        "without waiting for the disk"
    )
    print_table(
        [
            "table",
            "plays",
            "queries early",
            "queries late",
            "all counts",
            "last play",
            "ms/play",
            "p95 ms",
            "CPU ms/play",
        ],
        rows,
    )


# --- rendering one user's board -----------------------------------------------------------


def game_in_progress(scenario: Scenario, plays: int) -> Table:
    """A table a few human moves into its game."""
    table = started_table(scenario.kind, scenario.seats, scenario.humans, seed=7)
    for _ in played(table, random.Random(7), plays):
        pass
    return table


def median_render(render: Any, game: Any, user: Any) -> float:
    """Median seconds of one render, over several runs of several renders."""
    runs = []
    for _ in range(RUNS):
        times = []
        for _ in range(RENDERS):
            start = time.perf_counter()
            render(game, user)
            times.append(time.perf_counter() - start)
        runs.append(statistics.median(times))
    return statistics.median(runs)


def report_renders() -> None:
    """render_board and render_regions per game, seated and as a spectator."""
    from django.contrib.auth.models import AnonymousUser
    from django.db import connection

    from games.boards import render_board, render_regions
    from games.models import Game

    rows = []
    for scenario in SCENARIOS:
        table = game_in_progress(scenario, plays=6)
        game = Game.objects.get(pk=table.game_id)
        for who, user in (("seated", table.humans[min(table.humans)]), ("spectator", None)):
            user = user or AnonymousUser()
            counter = QueryCounter()
            with connection.execute_wrapper(counter):
                regions = render_regions(game, user)
            kept = sum(sys.getsizeof(html) for html in regions.values())
            rows.append(
                [
                    f"{scenario.label}, {who}",
                    f"{ms(median_render(render_board, game, user))}",
                    f"{ms(median_render(render_regions, game, user))}",
                    str(counter.count),
                    str(len(regions)),
                    f"{sum(map(len, regions.values())) / 1024:.1f}",
                    f"{kept / 1024:.1f}",
                ]
            )
    print(f"\nrender one user's board (6 human moves in; median of {RUNS} runs of {RENDERS})")
    print_table(
        [
            "table, viewer",
            "render_board ms",
            "render_regions ms",
            "queries",
            "regions",
            "KiB sent",
            "KiB kept/socket",
        ],
        rows,
    )


# --- move-to-screen latency with many tables live -----------------------------------------


@dataclass
class LiveTable:
    """A live table: its game and the sockets watching it."""

    table: Table
    sockets: list[Any] = field(default_factory=list)


def live_table(index: int) -> Table:
    """Table `index`: Midnight Bakery (2 people + owl) or Cakehalla, with 2 to 4 sockets."""
    scenario = MB_TABLE if index % 2 == 0 else CAKEHALLA_TABLE
    table = started_table(scenario.kind, scenario.seats, scenario.humans, seed=100 + index)
    cookies: list[bytes | None] = [session_cookie(u) for u in table.humans.values()]
    spectators = 2 + index % 3 - len(cookies)
    table.cookies = cookies + [None] * spectators
    return table


async def connect(game_id: int, cookie: bytes | None) -> Any:
    """A connected socket whose first (whole) board has arrived."""
    ws = communicator(game_id, cookie)
    connected, _ = await ws.connect(timeout=SOCKET_TIMEOUT)
    if not connected:
        raise RuntimeError(f"the socket of game {game_id} was refused")
    await ws.receive_from(timeout=SOCKET_TIMEOUT)
    return ws


def play_one(table: Table, rng: random.Random) -> float | None:
    """One human move at the table, as the HTTP view makes it; the clock when play returned."""
    from games import services

    move = human_move(table, rng)
    if move is None:
        return None
    user, action, version, _ = move
    services.play(table.game_id, user, action, version)
    return time.perf_counter()


@dataclass
class Driven:
    """What one table saw in one run: each move's latency, the pushes and their characters."""

    kind: str
    latencies: list[float] = field(default_factory=list)
    pushes: int = 0
    chars: int = 0


async def drive(live: LiveTable, moves: int, think_ms: int, http: ThreadPoolExecutor) -> Driven:
    """Move, then wait until every socket of the table has its pushed board, then think."""
    from asgiref.sync import sync_to_async

    play = sync_to_async(play_one, thread_sensitive=False, executor=http)
    rng = random.Random(f"{live.table.game_id}:{think_ms}:{moves}")
    driven = Driven(live.table.kind)
    if think_ms:
        await asyncio.sleep(rng.uniform(0, 2 * think_ms) / 1000)
    for _ in range(moves):
        played = await play(live.table, rng)
        if played is None:
            break
        got = await asyncio.gather(
            *(ws.receive_from(timeout=SOCKET_TIMEOUT) for ws in live.sockets)
        )
        driven.latencies.append(time.perf_counter() - played)
        driven.pushes += len(got)
        driven.chars += sum(map(len, got))
        if think_ms:
            await asyncio.sleep(rng.uniform(0, 2 * think_ms) / 1000)
    return driven


@dataclass
class LiveRun:
    """What one run with K live tables measured."""

    tables: int
    think_ms: int
    sockets: int
    connect_seconds: list[float]
    driven: list[Driven]
    seconds: float
    work: ConsumerWork

    @property
    def latencies(self) -> list[float]:
        """Every move's latency."""
        return [x for d in self.driven for x in d.latencies]

    @property
    def pushes(self) -> int:
        """Boards received, one per socket per move."""
        return sum(d.pushes for d in self.driven)

    @property
    def sent_chars(self) -> int:
        """Characters of all boards received."""
        return sum(d.chars for d in self.driven)


async def run_step(
    live: list[LiveTable], think_ms: int, moves: int, http: ThreadPoolExecutor
) -> LiveRun:
    """Connect the sockets these tables lack, then let them all move and time each move."""
    connect_seconds = []
    for lt in live:
        for cookie in lt.table.cookies[len(lt.sockets) :]:
            start = time.perf_counter()
            lt.sockets.append(await connect(lt.table.game_id, cookie))
            connect_seconds.append(time.perf_counter() - start)
    with consumer_work() as work:
        start = time.perf_counter()
        driven = await asyncio.gather(*(drive(lt, moves, think_ms, http) for lt in live))
        seconds = time.perf_counter() - start
    return LiveRun(
        tables=len(live),
        think_ms=think_ms,
        sockets=sum(len(lt.sockets) for lt in live),
        connect_seconds=connect_seconds,
        driven=list(driven),
        seconds=seconds,
        work=work,
    )


async def run_live(tables: list[Table], plan: list[tuple[int, int]]) -> list[LiveRun]:
    """Each (K, think) step of the plan on the first K tables; sockets stay open between steps."""
    from asgiref.sync import sync_to_async
    from django.db import connections

    live = [LiveTable(t) for t in tables]
    await (await connect(tables[0].game_id, None)).disconnect()
    runs = []
    with http_thread() as http:
        for k, think_ms in plan:
            moves = max(3, -(-LIVE_MOVES // k))
            runs.append(await run_step(live[:k], think_ms, moves, http))
        await sync_to_async(connections.close_all, thread_sensitive=False, executor=http)()
    for lt in live:
        for ws in lt.sockets:
            await ws.disconnect()
    return runs


def kind_cell(run: LiveRun, kind: str) -> str:
    """Median / p95 ms of one game's tables, or a dash."""
    values = [x for d in run.driven if d.kind == kind for x in d.latencies]
    if not values:
        return "-"
    return f"{ms(statistics.median(values))} / {ms(p95(values))}"


def report_live() -> list[Table]:
    """Move-to-screen latency for K live tables; returns the tables."""
    plan = [(k, 0) for k in LIVE_TABLES] + [(k, THINK_MS) for k in PACED_TABLES if THINK_MS]
    tables = [live_table(i) for i in range(max(k for k, _ in plan))] if plan else []
    runs = asyncio.run(run_live(tables, plan)) if plan else []
    latency, work = [], []
    for run in runs:
        k, think_ms = run.tables, run.think_ms
        moved, pushes = len(run.latencies), max(1, run.pushes)
        pace = f"{think_ms / 1000:g} s" if think_ms else "none"
        latency.append(
            [
                str(k),
                pace,
                str(run.sockets),
                str(moved),
                ms(statistics.median(run.latencies)),
                ms(p95(run.latencies)),
                kind_cell(run, MB_TABLE.kind),
                kind_cell(run, CAKEHALLA_TABLE.kind),
                f"{moved / run.seconds:.0f}",
                f"{run.pushes / run.seconds:.0f}",
                ms(statistics.median(run.connect_seconds)) if run.connect_seconds else "-",
            ]
        )
        work.append(
            [
                str(k),
                pace,
                f"{run.work.queries / pushes:.1f}",
                f"{run.work.connections / pushes:.1f}",
                f"{run.work.renders / pushes:.1f}",
                ms(run.work.render_seconds / pushes),
                f"{run.work.rendered_chars / pushes / 1024:.1f}",
                f"{run.sent_chars / pushes / 1024:.1f}",
                f"{100 * run.work.render_seconds / run.seconds:.0f}%",
                f"{100 * run.work.busy_seconds / run.seconds:.0f}%",
            ]
        )
    print(
        "\nmove-to-screen latency: from services.play returning to every socket of that table "
        "holding its new board.\nEvery table moves again as soon as its screens are updated "
        "(think: none, saturated), or after a\nrandom pause of mean think (0 to 2x). Even tables "
        "are Midnight Bakery (2 people + owl), odd ones\nCakehalla (person vs greedy); 2-4 "
        "sockets each (players and anonymous spectators). Moves are played\nin one HTTP "
        "thread; the consumers run as in Daphne."
    )
    print_table(
        [
            "tables",
            "think",
            "sockets",
            "moves",
            "median ms",
            "p95 ms",
            "MB median/p95",
            "CH median/p95",
            "moves/s",
            "pushes/s",
            "connect ms",
        ],
        latency,
    )
    print(
        "\nthe consumers' work per push (one push = one socket getting one move); rendering and "
        "busy: share\nof the run's wall time spent in render_* and in the consumers' sync thread"
    )
    print_table(
        [
            "tables",
            "think",
            "queries",
            "DB connects",
            "renders",
            "render ms",
            "KiB rendered",
            "KiB sent",
            "rendering",
            "consumer thread busy",
        ],
        work,
    )
    return tables


# --- memory per connected player ----------------------------------------------------------


def player_cookies(
    scenario: Scenario, players: int, tables: Sequence[Table]
) -> list[tuple[int, bytes]]:
    """(game id, cookie) of `players` seated people: at these tables first, then at new ones."""
    out = [
        (t.game_id, cookie)
        for t in tables
        if t.kind == scenario.kind and len(t.humans) == scenario.humans
        for cookie in t.cookies
        if cookie is not None
    ]
    seed = 500
    while len(out) < players:
        seed += 1
        table = started_table(scenario.kind, scenario.seats, scenario.humans, seed)
        out.extend((table.game_id, session_cookie(u)) for u in table.humans.values())
    return out[:players]


async def measure_memory(
    open_socket: Callable[[int], Awaitable[Any]], count: int
) -> tuple[list[int], list[int]]:
    """Traced bytes held by `count` open sockets, and left after they close, per round."""
    await (await open_socket(0)).disconnect()
    held, left = [], []
    tracemalloc.start()
    try:
        for _ in range(RUNS):
            gc.collect()
            base = tracemalloc.get_traced_memory()[0]
            sockets = [await open_socket(i) for i in range(count)]
            gc.collect()
            held.append(tracemalloc.get_traced_memory()[0] - base)
            for ws in sockets:
                await ws.disconnect()
            del sockets
            gc.collect()
            left.append(tracemalloc.get_traced_memory()[0] - base)
    finally:
        tracemalloc.stop()
    return held, left


def memory_row(label: str, count: int, held: list[int], left: list[int]) -> list[str]:
    """One row of the memory table, in KiB per socket."""
    return [
        label,
        str(count),
        f"{statistics.median(held) / count / 1024:.1f}",
        f"{statistics.median(left) / count / 1024:.1f}",
    ]


def report_memory(tables: Sequence[Table]) -> None:
    """Memory per connected player, per game, beside a bare socket that only says hello."""
    rows = []
    for scenario in (MB_TABLE, CAKEHALLA_TABLE):
        players = player_cookies(scenario, MEMORY_PLAYERS, tables)

        async def open_player(i: int, players: list[tuple[int, bytes]] = players) -> Any:
            return await connect(*players[i])

        held, left = asyncio.run(measure_memory(open_player, len(players)))
        rows.append(memory_row(f"{scenario.label}, seated", len(players), held, left))

    async def open_bare(i: int) -> Any:
        ws = bare_socket()
        await ws.connect(timeout=SOCKET_TIMEOUT)
        await ws.receive_from(timeout=SOCKET_TIMEOUT)
        return ws

    held, left = asyncio.run(measure_memory(open_bare, MEMORY_PLAYERS))
    rows.append(memory_row("bare socket: accept + one hello, no auth", MEMORY_PLAYERS, held, left))
    print(
        f"\nmemory per connected player: tracemalloc growth while connected, first board "
        f"received (median of {RUNS}\nrounds); the test communicator stands in for Daphne's "
        "protocol object, and the bare row shows\nwhat a socket costs before any of the site's work"
    )
    print_table(["socket", "sockets", "KiB each", "KiB each left after close"], rows)


def main() -> None:
    """Print the site's speed tables (sizes from BENCH_SITE_* variables)."""
    start = time.perf_counter()
    took: list[str] = []

    def lap(name: str, since: float) -> float:
        now = time.perf_counter()
        took.append(f"{name} {now - since:.0f}")
        return now

    with django_on_a_throwaway_database() as database:
        print(f"site bench on {database}, in-memory channel layer, DEBUG off")
        mark = lap("set-up", start)
        report_plays()
        mark = lap("plays", mark)
        report_renders()
        mark = lap("renders", mark)
        tables = report_live()
        mark = lap("live", mark)
        report_memory(tables)
        lap("memory", mark)
    print(f"\nsite bench took {time.perf_counter() - start:.0f} s ({', '.join(took)} s)")


if __name__ == "__main__":
    main()
