"""The API beside the tables (BENCH_WEB_STREAMS=N, issue 49): N game streams of bot accounts open
on the tables people play, and token-authenticated GETs of a game and a profile.

Each bot account (bench/web/api_bots.py: a token each), in a process of readers of its own,
follows one table: it opens
`GET /api/games/{id}/stream` on the table's game, as a watcher, and again on the next game once
the table deals a new one; the streams are spread over the tables (N / tables a table), each
sent to the process the load balancer sends its table's requests to (BENCH_WEB_ROUTE=table, as
deploy/nginx.conf hashes /api/games/<id>...: the process of its table's sockets, which shares
its reads of each version; "seat": spread over the processes, as before 2026-12-07). Every
`gameState` line is stamped as it arrives. A move the tables time (the post or socket message,
client.Tally.moved: its game, the version it made, when it was sent) is then timed on every
stream that was open on its game before it: from the send to the first line at that version or
later (a burst of versions is told as the newest). Beside them, a
client asks `GET /api/games/{id}` (a table being played, routed as its streams) or `GET
/api/people/{name}` every GET_EVERY seconds with the bot accounts' tokens in turn, each answer
timed.

Its figures are printed after the tables' own (report), with the machine's load average: the
budget (a line on every stream within 100 ms p95, a GET under 30 ms p95) is for a quiet machine.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import multiprocessing
import os
import random
import shutil
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path

import httpx

from bench.web import site as sites
from bench.web.client import Tally, percentile, router
from bench.web.site import Site

GET_EVERY = 0.1
"""Seconds between the GETs' requests (one client, one request at a time)."""
END_GRACE = 2.0
"""Seconds the streams stay open after the tables stop, for the last moves' lines."""
KNOBS = {
    # Every stream and GET comes from 127.0.0.1: more than one client's minute of requests.
    "API_CLIENT_REQUESTS_PER_MINUTE": "1000000",
    "API_TOKEN_REQUESTS_PER_MINUTE": "100000",
}


def streams_wanted() -> list[int]:
    """The stream counts to run each table count with (BENCH_WEB_STREAMS: 0 is the tables
    alone, the pair to compare within one run of the bench)."""
    said = os.environ.get("BENCH_WEB_STREAMS", "0")
    return [int(n) for n in said.split(",") if n.strip()]


def tokens(site: Site, count: int) -> dict[str, str]:
    """Bot accounts and a token each, made in the site's database (api_bots.py)."""
    if not count:
        return {}
    return dict(json.loads(sites.manage(site, "-m", "bench.web.api_bots", str(count))))


@dataclass
class Heard:
    """One stream on one game: the version its first line showed, then each line's version and
    when it arrived."""

    game: int
    first: int
    lines: list[tuple[int, float]] = field(default_factory=list)


@dataclass
class Beside:
    """What the streams and the GETs saw."""

    wanted: int
    heard: list[Heard] = field(default_factory=list)
    opened: int = 0
    refused: Counter[str] = field(default_factory=Counter)
    errors: Counter[str] = field(default_factory=Counter)
    gets: dict[str, list[float]] = field(default_factory=lambda: {"game": [], "profile": []})
    load: tuple[float, float, float] = (0.0, 0.0, 0.0)


def start(
    urls: list[str],
    made: dict[str, str],
    people: list[str],
    seconds: float,
    out: Beside,
    route: str = "table",
) -> Callable[[Tally], Awaitable[None]]:
    """What runs beside the tables while the clock runs (bench.web.__main__.run's `beside`): the
    streams' readers in a process of their own (reading 200 streams in the tables' own loop
    made its lag, a floor under every latency, twenty times longer), told each table's game
    through a file; the GETs here."""

    async def beside(tally: Tally) -> None:
        until = time.perf_counter() + seconds  # perf_counter: the system's monotonic clock
        slots = sorted(tally.current)
        folder = Path(tempfile.mkdtemp(prefix="bench-streams-"))
        games, result = folder / "games.json", folder / "heard.json"

        def tell_games() -> None:
            told = {str(n): tally.current[slot] for n, slot in enumerate(slots)}
            games.with_suffix(".new").write_text(json.dumps(told))
            games.with_suffix(".new").replace(games)

        tell_games()
        tokens_used = list(made.values())[: out.wanted]
        readers = multiprocessing.get_context("spawn").Process(
            target=read_all,
            args=(urls, tokens_used, len(slots), str(games), until, str(result), route),
        )
        readers.start()
        asking = asyncio.ensure_future(
            ask(urls, list(made.values()), people, tally, until, out, route)
        )
        while time.perf_counter() < until:
            await asyncio.sleep(0.2)
            tell_games()
        out.load = os.getloadavg()
        await asking
        await asyncio.to_thread(readers.join, END_GRACE + 30)
        if result.exists():
            said = json.loads(result.read_text())
            out.heard = [
                Heard(g, first, [(v, t) for v, t in lines]) for g, first, lines in said["heard"]
            ]
            out.opened = said["opened"]
            out.refused.update(said["refused"])
            out.errors.update(said["errors"])
        else:
            out.errors["the readers' process said nothing"] += 1
        shutil.rmtree(folder, ignore_errors=True)

    return beside


def read_all(
    urls: list[str],
    made: list[str],
    slots: int,
    games: str,
    until: float,
    result: str,
    route: str = "table",
) -> None:
    """The readers' process: each token follows the table of its slot (the file says each
    slot's game now) until `until` and END_GRACE more; what they heard, written to `result`.
    Each stream goes where the load balancer sends its table (`where`)."""
    out = Beside(len(made))
    current: dict[int, int] = {}

    async def main() -> None:
        async def watch() -> None:
            while True:
                with contextlib.suppress(OSError, ValueError):
                    current.update(
                        {int(k): v for k, v in json.loads(Path(games).read_text()).items()}
                    )
                await asyncio.sleep(0.2)

        watching = asyncio.ensure_future(watch())
        followers = [
            asyncio.ensure_future(follow(where(route, urls, n), token, n % slots, current, out))
            for n, token in enumerate(made)
        ]
        await asyncio.sleep(max(0.0, until - time.perf_counter()) + END_GRACE)
        for task in [watching, *followers]:
            task.cancel()
        await asyncio.gather(watching, *followers, return_exceptions=True)

    asyncio.run(main())
    heard = [[h.game, h.first, h.lines] for h in out.heard]
    said = {"heard": heard, "opened": out.opened, "refused": out.refused, "errors": out.errors}
    Path(result).write_text(json.dumps(said))


def where(route: str, urls: list[str], n: int) -> Callable[[int], str]:
    """The process a table's API requests go to: as deploy/nginx.conf sends /api/games/<id>...
    (by the table, as its pages and sockets: "table"), else the n-th client's own."""
    by_table = router(route, urls)
    return lambda game: by_table(game) or urls[n % len(urls)]


async def follow(
    url_of: Callable[[int], str], token: str, slot: int, current: dict[int, int], out: Beside
) -> None:
    """Follow one table's games by their streams until cancelled."""
    headers = {"Authorization": f"Bearer {token}", "Accept": "application/x-ndjson"}
    timeout = httpx.Timeout(10.0, read=None)
    followed: set[int] = set()
    clients: dict[str, httpx.AsyncClient] = {}
    try:
        while True:
            game = current.get(slot)
            if game is None or game in followed:
                await asyncio.sleep(0.2)  # the table deals its next game soon
                continue
            followed.add(game)
            url = url_of(game)
            if url not in clients:
                clients[url] = httpx.AsyncClient(base_url=url, timeout=timeout)
            try:
                await read_stream(clients[url], headers, game, out)
            except (httpx.HTTPError, OSError, ValueError) as error:
                out.errors[type(error).__name__] += 1
    finally:
        for client in clients.values():
            await client.aclose()


async def read_stream(
    client: httpx.AsyncClient, headers: dict[str, str], game: int, out: Beside
) -> None:
    """One game's stream, its lines stamped as they arrive, until its end."""
    async with client.stream("GET", f"/api/games/{game}/stream", headers=headers) as answer:
        if answer.status_code != 200:
            out.refused[str(answer.status_code)] += 1
            return
        out.opened += 1
        heard: Heard | None = None
        async for raw in answer.aiter_lines():
            at = time.perf_counter()
            if not raw.strip():
                continue
            line = json.loads(raw)
            if line["type"] == "gameFull":
                heard = Heard(game, int(line["version"]))
                out.heard.append(heard)
            elif line["type"] == "gameState" and heard is not None:
                heard.lines.append((int(line["version"]), at))
            elif line["type"] == "end":
                return


async def ask(
    urls: list[str],
    made: list[str],
    people: list[str],
    tally: Tally,
    until: float,
    out: Beside,
    route: str = "table",
) -> None:
    """A game or a profile, in turn, every GET_EVERY seconds, timed while the tables' clock runs;
    a game's where the load balancer sends its table."""
    rng = random.Random(7)
    clients = {url: httpx.AsyncClient(base_url=url, timeout=10.0) for url in urls}
    try:
        n = 0
        while time.perf_counter() < until:
            await asyncio.sleep(GET_EVERY)
            n += 1
            game = rng.choice(list(tally.current.values()))
            what = "game" if n % 2 else "profile"
            path = f"/api/games/{game}" if what == "game" else f"/api/people/{rng.choice(people)}"
            url = where(route, urls, n)(game) if what == "game" else urls[n % len(urls)]
            headers = {"Authorization": f"Bearer {made[n % len(made)]}"}
            asked = time.perf_counter()
            try:
                answer = await clients[url].get(path, headers=headers)
            except (httpx.HTTPError, OSError) as error:
                out.errors[f"GET {type(error).__name__}"] += 1
                continue
            took = time.perf_counter() - asked
            if answer.status_code != 200:
                out.refused[f"GET {what} {answer.status_code}"] += 1
            elif tally.measuring:
                out.gets[what].append(took)
    finally:
        for client in clients.values():
            await client.aclose()


def line_latencies(
    moved: list[tuple[int, int, float]], heard: list[Heard]
) -> tuple[list[float], list[float], int]:
    """Each (move, stream open on its game before it): seconds from the send to the stream's
    first line at its version or later; the slowest stream's of each move; the pairs whose line
    never came (a stream cut at the end, or one that missed it)."""
    by_game: dict[int, list[Heard]] = {}
    for stream in heard:
        by_game.setdefault(stream.game, []).append(stream)
    each: list[float] = []
    slowest: list[float] = []
    missing = 0
    for game, version, sent in moved:
        times = []
        for stream in by_game.get(game, []):
            if stream.first >= version:
                continue  # opened after this move: its first line held it
            came = next((at for v, at in stream.lines if v >= version), None)
            if came is None:
                missing += 1
            else:
                times.append(came - sent)
        each += times
        if times:
            slowest.append(max(times))
    return each, slowest, missing


def report(tally: Tally, out: Beside) -> None:
    """Print what the streams and the GETs measured."""
    if not out.wanted:
        return
    each, slowest, missing = line_latencies(tally.moved, out.heard)
    ms = [1000 * x for x in each]
    worst = [1000 * x for x in slowest]
    print(
        f"   {out.wanted} game streams of bot accounts ({out.opened} opened over the run):"
        f" a move's line on a stream p50 {percentile(ms, 50):.0f} ms"
        f"  p95 {percentile(ms, 95):.0f} ms  p99 {percentile(ms, 99):.0f} ms"
        f" ({len(ms)} lines timed); on every stream of its table p95 {percentile(worst, 95):.0f} ms"
        f" ({len(worst)} moves); lines never seen {missing}"
    )
    for what, took in out.gets.items():
        got = [1000 * x for x in took]
        print(
            f"   token-authenticated GET of a {what}: p50 {percentile(got, 50):.0f} ms"
            f"  p95 {percentile(got, 95):.0f} ms  ({len(got)} asked)"
        )
    print(
        f"   refused {dict(out.refused) or 0}  errors {dict(out.errors) or 0}"
        f"  load average at the end {out.load[0]:.1f} / {out.load[1]:.1f} / {out.load[2]:.1f}"
        f" on {os.cpu_count()} cores"
    )
