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
timed (BENCH_WEB_STREAM_GETS=0: none, to tell the streams' own cost from the GETs').

The streams are opened before the clock (`Readers.open`, after the tables are seated and before
the statistics' flush the transaction counts wait for), and the clock waits until every one said
its first line (the table as its bot sees it): the measured minute holds the streams' standing
cost, not their openings (about ten queries each). Those not open within OPEN_WITHIN seconds are
said loudly then and in the report; a stream opened again on a table's next game while the clock
runs is counted apart. Its figures are printed after the tables' own (report), with the
machine's load average: the budget (a line on every stream within 100 ms p95, a GET under 30 ms
p95) is for a quiet machine.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import math
import multiprocessing
import os
import random
import shutil
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import httpx

from bench.web import site as sites
from bench.web.client import Tally, percentile, router
from bench.web.site import Site

GET_EVERY = 0.1
"""Seconds between the GETs' requests (one client, one request at a time)."""
GETS = os.environ.get("BENCH_WEB_STREAM_GETS", "1") != "0"
"""Whether the GETs are asked beside the streams (on by default)."""
END_GRACE = 2.0
"""Seconds the streams stay open after the tables stop, for the last moves' lines."""
OPEN_WITHIN = 60.0
"""Seconds the clock waits for every stream's first line before it starts without them."""
NOT_OPEN = "!!! STREAMS NOT OPEN: {opened} of {wanted} said their first line before the clock"
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
    at: float = 0.0  # when its first line came


@dataclass
class Beside:
    """What the streams and the GETs saw."""

    wanted: int
    heard: list[Heard] = field(default_factory=list)
    opened: int = 0
    ready: int = 0  # streams whose first line came before the clock
    clock: float = 0.0  # when the clock started (perf_counter)
    refused: Counter[str] = field(default_factory=Counter)
    errors: Counter[str] = field(default_factory=Counter)
    gets: dict[str, list[float]] = field(default_factory=lambda: {"game": [], "profile": []})
    load: tuple[float, float, float] = (0.0, 0.0, 0.0)


class Readers:
    """The streams' readers in a process of their own (reading 200 streams in the tables' own
    loop made its lag, a floor under every latency, twenty times longer), told each table's
    game, and later the clock's end, through files; the GETs here (bench.web.__main__.run:
    `open` before the clock, `beside` while it runs)."""

    def __init__(
        self,
        urls: list[str],
        made: dict[str, str],
        people: list[str],
        out: Beside,
        seconds: float,
        stagger: float = 0.0,
        route: str = "table",
    ) -> None:
        self.urls, self.made, self.people, self.out, self.route = urls, made, people, out, route
        self.seconds, self.stagger = seconds, stagger
        self.folder = Path(tempfile.mkdtemp(prefix="bench-streams-"))
        self.process: multiprocessing.process.BaseProcess | None = None
        self.slots: list[int] = []

    def tell(self, name: str, said: object) -> None:
        """A file the readers' process reads, replaced whole."""
        new = self.folder / f"{name}.new"
        new.write_text(json.dumps(said))
        new.replace(self.folder / f"{name}.json")

    def tell_games(self, tally: Tally) -> None:
        self.tell("games", {str(n): tally.current[slot] for n, slot in enumerate(self.slots)})

    async def open(self, tally: Tally) -> None:
        """Start the readers on the seated tables and wait (OPEN_WITHIN at most) until every
        stream said its first line; say loudly how many did not."""
        self.slots = sorted(tally.current)
        self.tell_games(tally)
        self.process = multiprocessing.get_context("spawn").Process(
            target=read_all,
            args=(
                self.urls,
                list(self.made.values())[: self.out.wanted],
                len(self.slots),
                str(self.folder),
                self.route,
            ),
        )
        self.process.start()
        deadline = time.perf_counter() + OPEN_WITHIN
        while time.perf_counter() < deadline and self.process.is_alive():
            self.out.ready, answered = ready(self.folder)
            if answered >= self.out.wanted:  # each opened, or was refused or failed
                break
            await asyncio.sleep(0.2)
        self.out.ready, _ = ready(self.folder)
        if self.out.ready < self.out.wanted:
            print(NOT_OPEN.format(opened=self.out.ready, wanted=self.out.wanted), flush=True)
        else:
            print(f"   {self.out.ready} streams open, each its first line heard", flush=True)

    async def beside(self, tally: Tally) -> None:
        """While the clock runs (from the stagger's start, with one): the tables' games told,
        the GETs asked; then what the readers heard."""
        # perf_counter: the system's monotonic clock, the same in the readers' process
        until = time.perf_counter() + self.stagger + self.seconds
        self.out.clock = until - self.seconds
        self.tell("until", until)
        asking = asyncio.ensure_future(
            ask(
                self.urls, list(self.made.values()), self.people, tally, until, self.out, self.route
            )
        )
        while time.perf_counter() < until:
            await asyncio.sleep(0.2)
            self.tell_games(tally)
        self.out.load = os.getloadavg()
        await asking
        await asyncio.to_thread(self.finish)

    def finish(self) -> None:
        """Wait for the readers' process to write what it heard, and read it."""
        result = self.folder / "heard.json"
        if self.process is not None:
            self.process.join(END_GRACE + 30)
            if self.process.is_alive():
                self.process.kill()
                self.out.errors["the readers' process did not end"] += 1
        if result.exists():
            said = json.loads(result.read_text())
            self.out.heard = [
                Heard(g, first, [(v, t) for v, t in lines], at)
                for g, first, lines, at in said["heard"]
            ]
            self.out.opened = said["opened"]
            self.out.refused.update(said["refused"])
            self.out.errors.update(said["errors"])
        else:
            self.out.errors["the readers' process said nothing"] += 1
        self.close()

    def close(self) -> None:
        """The readers' process ended (it ends too once its folder is gone), its files gone."""
        if self.process is not None and self.process.is_alive():
            self.process.kill()
            self.process.join(5)
        shutil.rmtree(self.folder, ignore_errors=True)


def ready(folder: Path) -> tuple[int, int]:
    """How many streams said their first line, and how many were answered (that, or refused,
    or failed), as the readers' process last wrote."""
    with contextlib.suppress(OSError, ValueError):
        opened, answered = json.loads((folder / "ready.json").read_text())
        return int(opened), int(answered)
    return 0, 0


def read_all(
    urls: list[str], made: list[str], slots: int, folder: str, route: str = "table"
) -> None:
    """The readers' process: each token follows the table of its slot (games.json says each
    slot's game now) until until.json's moment and END_GRACE more; how many said a first line,
    in ready.json as they do; what they heard, in heard.json. Each stream goes where the load
    balancer sends its table (`where`)."""
    out = Beside(len(made))
    current: dict[int, int] = {}
    files = Path(folder)
    first_heard: set[int] = set()  # the followers whose stream said its first line
    answered: set[int] = set()  # those, and the followers whose first stream failed

    def opened(n: int) -> None:
        first_heard.add(n)
        answered.add(n)

    async def main() -> None:
        until = math.inf

        async def watch() -> None:
            nonlocal until
            told = (-1, -1)
            while files.exists():  # gone: the bench ended without telling the clock's end
                with contextlib.suppress(OSError, ValueError):
                    current.update(
                        {
                            int(k): v
                            for k, v in json.loads((files / "games.json").read_text()).items()
                        }
                    )
                with contextlib.suppress(OSError, ValueError):
                    until = float(json.loads((files / "until.json").read_text()))
                if (len(first_heard), len(answered)) != told:
                    told = (len(first_heard), len(answered))
                    with contextlib.suppress(OSError):
                        (files / "ready.new").write_text(json.dumps(told))
                        (files / "ready.new").replace(files / "ready.json")
                await asyncio.sleep(0.2)
            until = -math.inf

        watching = asyncio.ensure_future(watch())
        followers = [
            asyncio.ensure_future(
                follow(
                    where(route, urls, n),
                    token,
                    n % slots,
                    current,
                    out,
                    functools.partial(opened, n),
                    functools.partial(answered.add, n),
                )
            )
            for n, token in enumerate(made)
        ]
        while time.perf_counter() < until + END_GRACE:
            await asyncio.sleep(0.2)
        for task in [watching, *followers]:
            task.cancel()
        await asyncio.gather(watching, *followers, return_exceptions=True)

    asyncio.run(main())
    heard = [[h.game, h.first, h.lines, h.at] for h in out.heard]
    said = {"heard": heard, "opened": out.opened, "refused": out.refused, "errors": out.errors}
    (files / "heard.json").write_text(json.dumps(said))


def where(route: str, urls: list[str], n: int) -> Callable[[int], str]:
    """The process a table's API requests go to: as deploy/nginx.conf sends /api/games/<id>...
    (by the table, as its pages and sockets: "table"), else the n-th client's own."""
    by_table = router(route, urls)
    return lambda game: by_table(game) or urls[n % len(urls)]


async def follow(
    url_of: Callable[[int], str],
    token: str,
    slot: int,
    current: dict[int, int],
    out: Beside,
    first: Callable[[], None],
    answered: Callable[[], None],
) -> None:
    """Follow one table's games by their streams until cancelled (`first()` once a stream said
    its first line, `answered()` once one said it or ended: refused, failed or over)."""
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
                await read_stream(clients[url], headers, game, out, first)
            except (httpx.HTTPError, OSError, ValueError) as error:
                out.errors[type(error).__name__] += 1
            answered()
    finally:
        for client in clients.values():
            await client.aclose()


async def read_stream(
    client: httpx.AsyncClient,
    headers: dict[str, str],
    game: int,
    out: Beside,
    first: Callable[[], None],
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
                heard = Heard(game, int(line["version"]), at=at)
                out.heard.append(heard)
                first()
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
    a game's where the load balancer sends its table. None with BENCH_WEB_STREAM_GETS=0."""
    if not GETS:
        return
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
    again = sum(1 for h in out.heard if h.at >= out.clock)
    if out.ready < out.wanted:
        print(NOT_OPEN.format(opened=out.ready, wanted=out.wanted))
    print(
        f"   {out.wanted} game streams of bot accounts ({out.ready} open before the clock,"
        f" {again} opened while it ran, {out.opened} answered in all):"
        f" a move's line on a stream p50 {percentile(ms, 50):.0f} ms"
        f"  p95 {percentile(ms, 95):.0f} ms  p99 {percentile(ms, 99):.0f} ms"
        f" ({len(ms)} lines timed); on every stream of its table p95 {percentile(worst, 95):.0f} ms"
        f" ({len(worst)} moves); lines never seen {missing}"
    )
    for what, took in out.gets.items() if GETS else ():
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
