"""make bench-web: browsers' load on the live site, move to every screen, for both games.

Sizes from the environment: BENCH_WEB_TABLES (25,50,100), BENCH_WEB_SECONDS (60 per run),
BENCH_WEB_GAMES (midnight-bakery,cakehalla), BENCH_WEB_SETUPS (postgres,sqlite),
BENCH_WEB_PROCESSES (2 Daphne processes on PostgreSQL), BENCH_WEB_THINK (2.5 s mean),
BENCH_WEB_TIMEOUT (10 s), BENCH_WEB_SEED (1), BENCH_WEB_SLICES (0: seconds per slice of the run
whose own p50 and p95 are printed too, to see waves and a start burst apart), BENCH_WEB_ROUTE
(table: a table's requests and sockets go to the process its id hashes to, as deploy/nginx.conf
routes them; seat: each person to a process of their own, a table's people on both),
BENCH_WEB_STAGGER (0: every table starts playing as the clock starts, so their bakes and games
end together; S > 0: each table starts at a random moment of the S seconds before the clock, so
the clock finds the tables at every point of their games, as on an evening whose tables were not
all opened at once; the run takes S seconds longer, and nothing before the clock is measured;
what runs beside the tables, the streams and the reviews' asks, starts with the first table).
BENCH_WEB_STATS_FLUSH (11 s: on PostgreSQL, the wait after seating for its backends to flush
the statistics the transaction counts are read from; 0 for a quick pass whose counts may be off).
BENCH_WEB_MOVES (socket: moves go on the socket as live.js sends them; post: every move is
posted, as when a network keeps websockets from carrying the page's messages).
BENCH_WEB_MASTERS (0: K tables of four master bots alone, bench/web/masters.py, think on the site
while each tables' run runs, a new one dealt whenever one ends: issue 48's "ten tables of masters
thinking beside 90 busy tables of people").
BENCH_WEB_LANGUAGES (empty: no browser says a language, so everyone reads English; en,fr,de:
each person's browser sends Accept-Language, the languages dealt round a table's seats starting
one further on at each table, so every table of four has all three: issue 50's tables of mixed
languages, each socket rendering in its person's language).
BENCH_WEB_REVIEWS (0: K finished games of the run's game, bench/web/reviews.py, each of one seat's
review asked for at once through the site's ask form as the clock starts, then worked by the site
beside the tables: issue 48's "ten reviews queued at once beside 50 busy tables"; each review's
time from its ask to done is printed, and how far those not done by the clock's end got).
BENCH_WEB_STREAMS (0: comma-separated counts of game streams of bot accounts open on the tables,
bench/web/streams.py, each table count run once with each: "0,200" is issue 49's pair, the
tables alone and beside 200 streams; with streams, token-authenticated GETs are timed too,
unless BENCH_WEB_STREAM_GETS=0; the streams open before the clock, which waits for every one's
first line and says loudly how many did not come).
BENCH_DATABASE_URL and BENCH_REDIS_URL name the servers (127.0.0.1 only); each set-up gets its own
throwaway database and Redis prefix.
BENCH_WEB_URLS=http://127.0.0.1:8000[,...] points it at a running site instead (its people are
made on $DATABASE_URL; BENCH_WEB_PIDS=pid,... to read its CPU).
"""

from __future__ import annotations

import asyncio
import gc
import os
import random
import resource
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from bench.web import events, masters, restart, reviews, streams
from bench.web import site as sites
from bench.web.client import (
    MOVES,
    Person,
    Table,
    Tally,
    keep_playing,
    lag_probe,
    percentile,
    router,
    stale_sockets,
)
from bench.web.site import Site

SEATS = 4
SETUP_CONCURRENCY = 8
# PostgreSQL backends flush statistics when idle within 10 s.
STATS_FLUSH_SECONDS = float(os.environ.get("BENCH_WEB_STATS_FLUSH", "11"))


@dataclass
class Config:
    """The sizes of a bench run."""

    tables: list[int]
    seconds: float
    games: list[str]
    setups: list[str]
    processes: int
    think: float
    timeout: float
    seed: int
    slices: float = 0.0
    route: str = "table"
    stagger: float = 0.0
    scenarios: tuple[str, ...] = ("tables", *events.SCENARIOS)
    proxy: str = ""
    masters: int = 0
    reviews: int = 0
    streams: tuple[int, ...] = (0,)
    languages: tuple[str, ...] = ()


def config() -> Config:
    """Read the sizes from the environment."""
    env = os.environ.get
    return Config(
        tables=[int(n) for n in env("BENCH_WEB_TABLES", "25,50,100").split(",") if n.strip()],
        seconds=float(env("BENCH_WEB_SECONDS", "60")),
        games=[g.strip() for g in env("BENCH_WEB_GAMES", "midnight-bakery,cakehalla").split(",")],
        setups=[s.strip() for s in env("BENCH_WEB_SETUPS", "postgres,sqlite").split(",")],
        processes=int(env("BENCH_WEB_PROCESSES", "2")),
        think=float(env("BENCH_WEB_THINK", "2.5")),
        timeout=float(env("BENCH_WEB_TIMEOUT", "10")),
        seed=int(env("BENCH_WEB_SEED", "1")),
        slices=float(env("BENCH_WEB_SLICES", "0")),
        route=env("BENCH_WEB_ROUTE", "table"),
        stagger=float(env("BENCH_WEB_STAGGER", "0")),
        scenarios=tuple(
            n.strip()
            for n in env("BENCH_WEB_SCENARIOS", ",".join(("tables", *events.SCENARIOS))).split(",")
            if n.strip()
        ),
        proxy=env("BENCH_WEB_PROXY", ""),
        masters=int(env("BENCH_WEB_MASTERS", "0")),
        reviews=int(env("BENCH_WEB_REVIEWS", "0")),
        streams=tuple(streams.streams_wanted()),
        languages=tuple(n.strip() for n in env("BENCH_WEB_LANGUAGES", "").split(",") if n.strip()),
    )


@dataclass
class Outcome:
    """What one run measured, before the database's own counts are added."""

    tally: Tally
    wall: float
    cpu: list[float]
    generator_cpu: float
    transactions_before: int | None


def said(cfg: Config, n: int) -> str:
    """The language of the n-th browser dealt (BENCH_WEB_LANGUAGES), or "" for none said."""
    return cfg.languages[n % len(cfg.languages)] if cfg.languages else ""


async def seat_all(tables: list[Table]) -> None:
    """Set every table up (a few at a time, as people arriving would)."""
    gate = asyncio.Semaphore(SETUP_CONCURRENCY)

    async def one(table: Table) -> None:
        async with gate:
            await table.seat_or_count()

    await asyncio.gather(*(one(t) for t in tables))


async def play_from(
    table: Table, cfg: Config, rng: random.Random, delay: float, until: float
) -> None:
    """Keep the table playing from `delay` seconds on (see BENCH_WEB_STAGGER)."""
    await asyncio.sleep(delay)
    await keep_playing(table, cfg.think, rng, until)


# What runs beside the tables while the clock runs (a rolling restart): given the tally, awaited
# before the run ends.
Beside = Callable[[Tally], Awaitable[None]]


def together(go: Callable[[], None], beside: Beside | None) -> Beside:
    """What runs beside the tables: `go()` as the clock starts (the reviews' asks), then
    `beside` (the streams), if any."""

    async def both(tally: Tally) -> None:
        go()
        if beside is not None:
            await beside(tally)

    return both


async def run(
    site: Site,
    game: str,
    count: int,
    sessions: dict[str, str],
    cfg: Config,
    beside: Beside | None = None,
    front: list[str] | None = None,
    opening: Beside | None = None,
) -> Outcome:
    """Seat `count` tables, let them play for the configured time, and count; `opening` runs
    once they are seated, before the clock (the streams open), `beside` while the clock does,
    `front` (a proxy's URL) takes every request instead of the processes."""
    tally = Tally()
    names = sorted(sessions, key=lambda n: int(n.rsplit("-", 1)[1]))
    urls = front or site.urls
    tables = []
    for t in range(count):
        people = [
            Person(name, sessions[name], urls[(t + k) % len(urls)], cfg.timeout, said(cfg, t + k))
            for k, name in enumerate(names[t * SEATS : (t + 1) * SEATS])
        ]
        tables.append(Table(people, game, tally, cfg.timeout, router(cfg.route, urls)))
    rng = random.Random(cfg.seed)
    probe = asyncio.ensure_future(lag_probe(tally))
    try:
        began = time.perf_counter()
        await seat_all(tables)
        tally.seated_in = time.perf_counter() - began
        if opening is not None:
            await opening(tally)
        if site.database:
            await asyncio.sleep(STATS_FLUSH_SECONDS)
        until = time.perf_counter() + cfg.stagger + cfg.seconds
        playing = [
            asyncio.ensure_future(play_from(t, cfg, rng, rng.uniform(0, cfg.stagger), until))
            for t in tables
        ]
        # With a stagger, what runs beside (the streams' GETs, the reviews' asks) starts with the
        # first table; without one, at the clock. The streams opened before either (`opening`).
        early = asyncio.ensure_future(beside(tally)) if beside and cfg.stagger else None
        await asyncio.sleep(cfg.stagger)  # the tables start one by one; nothing is measured yet
        before = sites.transactions(site)
        # The generator's own pages hold no reference cycles (lxml trees, page.py), so it measures
        # without the cyclic collector: its full passes over a hundred tables' pages stalled its
        # loop up to 330 ms, and every arrival stamped meanwhile counted that as server latency.
        gc.collect()
        gc.disable()
        cpu0, gen0, t0 = sites.cpu_seconds(site), time.process_time(), time.perf_counter()
        tally.measuring = True
        # Said when the clock starts, for anyone attaching a profiler to the Daphne processes.
        print(f"   seated in {tally.seated_in:.0f} s; measuring {cfg.seconds:.0f} s", flush=True)
        tally.errors_before = sum(tally.errors.values())
        alongside = [early] if early else [beside(tally)] if beside else []
        await asyncio.gather(*playing, *alongside)
        wall = time.perf_counter() - t0
        cpu = [b - a for a, b in zip(cpu0, sites.cpu_seconds(site), strict=True)]
        generator = time.process_time() - gen0
        tally.measuring = False
        await asyncio.sleep(1.0)
        tally.stale = stale_sockets(tables)
    finally:
        gc.enable()
        probe.cancel()
        for table in tables:
            await table.leave()
        for table in tables:
            for person in table.people:
                await person.close()
    return Outcome(tally, wall, cpu, generator, before)


def slices(
    latencies: list[float], sent_at: list[float], width: float
) -> list[tuple[float, list[float]]]:
    """The latencies of the moves sent in each `width` seconds from the first, in order."""
    if not sent_at or width <= 0:
        return []
    first = min(sent_at)
    found: dict[int, list[float]] = {}
    for latency, sent in zip(latencies, sent_at, strict=True):
        found.setdefault(int((sent - first) // width), []).append(latency)
    return [(k * width, found.get(k, [])) for k in range(max(found) + 1)]


def report(site: Site, game: str, count: int, out: Outcome, cfg: Config, after: int | None) -> None:
    """Print one run's figures."""
    tally = out.tally
    moves = tally.measured
    stored = sites.people_moves(site, tally.games)
    lost = sum(max(0, n - stored.get(g, 0)) for g, n in tally.accepted.items())
    extra = sum(max(0, n - tally.accepted.get(g, 0)) for g, n in stored.items())
    ms = [1000 * x for x in tally.latencies]
    answers = [1000 * x for x in tally.answers]
    cpu_share = " + ".join(f"{100 * c / out.wall:.0f}%" for c in out.cpu) or "n/a"
    cpu_per_move = 1000 * sum(out.cpu) / moves if moves else 0.0
    queries = (
        f"{(after - out.transactions_before) / moves:.1f}"
        if moves and after is not None and out.transactions_before is not None
        else "n/a (SQLite)"
    )
    errors = sum(tally.errors.values())
    logged = sites.log_errors(site) if not site.external else "n/a"
    print(
        f"-- {game}, {count} tables, {site.label}, routed by {cfg.route}, moves {MOVES},"
        f" {cfg.seconds:.0f} s, languages {','.join(cfg.languages) or 'none said (English)'}"
        f" (seated in {tally.seated_in:.0f} s{staggered(cfg)})"
    )
    print(
        f"   move to every screen: p50 {percentile(ms, 50):.0f} ms  p95 {percentile(ms, 95):.0f} ms"
        f"  p99 {percentile(ms, 99):.0f} ms  ({len(ms)} moves measured)"
    )
    print(
        f"   post answered: p50 {percentile(answers, 50):.0f} ms  p95 {percentile(answers, 95):.0f}"
        f" ms;  moves {moves} ({moves / cfg.seconds:.1f}/s), other taps {tally.other_taps},"
        f" games finished {tally.finished}; moves by type {dict(tally.kinds)}"
    )
    print(
        f"   errors {errors} ({tally.errors_before} before the clock) {dict(tally.errors) or ''}"
        f"  refused {sum(tally.refused.values())}"
        f" {dict(tally.refused) or ''}  lost moves {lost}  unanswered-but-stored {extra}"
        f"  stale sockets {tally.stale}  gap resyncs {tally.resyncs}  server errors logged {logged}"
    )
    print(
        f"   server CPU {cpu_share} of a core ({cpu_per_move:.0f} ms a move);"
        f"  DB transactions a move {queries};"
        f"  load generator CPU {100 * out.generator_cpu / out.wall:.0f}%"
    )
    lags = [1000 * x for x in tally.lags]
    print(
        f"   load generator's own loop lag (a floor under every latency above):"
        f" p50 {percentile(lags, 50):.0f} ms  p95 {percentile(lags, 95):.0f} ms"
        f"  p99 {percentile(lags, 99):.0f} ms"
    )
    for start, part in slices(tally.latencies, tally.sent_at, cfg.slices):
        ms_part = [1000 * x for x in part]
        print(
            f"   moves sent {start:.0f}-{start + cfg.slices:.0f} s in: {len(part)},"
            f" p50 {percentile(ms_part, 50):.0f} ms  p95 {percentile(ms_part, 95):.0f} ms"
        )


def staggered(cfg: Config) -> str:
    """How the run's tables started, if not all at the clock."""
    return f"; tables started over the {cfg.stagger:.0f} s before the clock" if cfg.stagger else ""


def make_site(kind: str, cfg: Config) -> Site:
    """A set-up by name: postgres (Daphne processes, PostgreSQL, Redis) or sqlite (make run's)."""
    if kind == "postgres":
        return sites.postgres_site(cfg.processes)
    if kind == "sqlite":
        return sites.sqlite_site()
    raise SystemExit(f"Unknown set-up {kind!r}: use postgres or sqlite.")


def more_files() -> None:
    """Raise this process's (and its Daphnes') open-file limit: 100 tables hold 800 sockets."""
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def restarted(site: Site, game: str, count: int, sessions: dict[str, str], cfg: Config) -> None:
    """The tables run with a rolling restart of every process partway (bench/web/restart.py),
    straight to the processes or through deploy/nginx.conf (BENCH_WEB_PROXY=nginx)."""
    if site.external:
        raise SystemExit("The restart scenario rolls the processes it starts: no BENCH_WEB_URLS.")
    began = time.monotonic()
    rolling = restart.Rolling(site, restart.roll_at(cfg.seconds))
    rolling.note_logs()
    with sites.running(site), restart.proxied(site, cfg.proxy) as front:
        outcome = asyncio.run(run(site, game, count, sessions, cfg, rolling.run, front))
        restart.report(site, game, count, outcome.tally, rolling, cfg, front)
    print(f"   (run took {time.monotonic() - began:.0f} s)", flush=True)


def main() -> None:
    """Every set-up, game and table count of the configuration, each on fresh Daphne processes."""
    more_files()
    cfg = config()
    urls = os.environ.get("BENCH_WEB_URLS", "")
    for kind in ["running"] if urls else cfg.setups:
        if urls:
            site = sites.running_site(urls, os.environ.get("BENCH_WEB_PIDS", ""))
        else:
            site = make_site(kind, cfg)
        if any(cfg.streams):
            site.env.update(streams.KNOBS)
        try:
            began = time.monotonic()
            tables = "tables" in cfg.scenarios
            seated = tables or restart.NAME in cfg.scenarios
            people = max(SEATS * max(cfg.tables) if seated else 0, events.people_needed(cfg))
            sessions = sites.prepare(site, people)
            bots = streams.tokens(site, max(cfg.streams))
            took = time.monotonic() - began
            print(f"== {site.label}: ready, {len(sessions)} people ({took:.0f} s)")
            for game in cfg.games if tables else []:
                for count, wanted in ((c, w) for c in cfg.tables for w in cfg.streams):
                    began = time.monotonic()
                    names = sorted(sessions)[: SEATS * count]
                    api = streams.Beside(wanted)
                    with (
                        sites.running(site),
                        masters.beside(site, cfg.masters) as thinking,
                        reviews.beside(site, cfg.reviews, game) as (asked, reviewed),
                    ):
                        readers = streams.Readers(  # site.urls: the processes just started
                            site.urls, bots, names, api, cfg.seconds, cfg.stagger, cfg.route
                        )
                        alongside = together(asked, readers.beside if wanted else None)
                        opening = readers.open if wanted else None
                        try:
                            outcome = asyncio.run(
                                run(site, game, count, sessions, cfg, alongside, None, opening)
                            )
                        finally:
                            readers.close()
                    report(site, game, count, outcome, cfg, sites.transactions(site))
                    masters.report(cfg.masters, thinking)
                    reviews.report(cfg.reviews, game, reviewed)
                    streams.report(outcome.tally, api)
                    print(f"   (run took {time.monotonic() - began:.0f} s)", flush=True)
            for game in cfg.games if restart.NAME in cfg.scenarios else []:
                for count in cfg.tables:
                    restarted(site, game, count, sessions, cfg)
            for name in (n for n in cfg.scenarios if n not in {"tables", restart.NAME}):
                began = time.monotonic()
                events.run(name, site, sessions, cfg)
                print(f"   (run took {time.monotonic() - began:.0f} s)", flush=True)
        finally:
            sites.drop(site)


if __name__ == "__main__":
    main()
