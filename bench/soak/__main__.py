"""make soak: does one Daphne process's memory level off? People play quick games against bots
for an hour while its RSS is sampled (issue 29: "an hour's soak whose last half grows less than
10 MB").

One Daphne process (DEBUG=0) on a throwaway PostgreSQL database and Redis, as bench-web starts
them (bench/web/site.py). Each person, in a loop: the lobby's quick-game form (POST /games/quick/,
Midnight Bakery and Cakehalla by turns), the table page and its socket, the moves the page offers
(bench/web/players.py) sent as live.js sends them, until the game's results; then the next game.
The Daphne process's RSS is printed every sample with the games finished and the moves so far,
then the RSS at the start, the half and the end, the growth over the last half, and the errors
(HTTP, socket, and server errors in the Daphne log).

Sizes from the environment: BENCH_SOAK_PEOPLE (6), BENCH_SOAK_MINUTES (60), BENCH_SOAK_SAMPLE
(30 s between samples), BENCH_SOAK_THINK (0.3 s mean before each tap), BENCH_SOAK_TIMEOUT (10 s
for a request or an answer), BENCH_SOAK_GAME_MINUTES (10: a game not over by then counts as an
error and the person starts another), BENCH_SOAK_SEED (1), BENCH_SOAK_SETUP (postgres; sqlite is
make run's defaults, for the tests' short pass without a PostgreSQL server). BENCH_DATABASE_URL
and BENCH_REDIS_URL name the servers (127.0.0.1 only). BENCH_WEB_KEEP_LOGS=1 keeps the Daphne log.
"""

from __future__ import annotations

import asyncio
import os
import random
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import httpx
from websockets.exceptions import WebSocketException

from bench.web import site as sites
from bench.web.__main__ import more_files
from bench.web.client import TABLE_URL, Person, Table, Tally, play
from bench.web.page import inputs
from bench.web.players import POLICIES
from bench.web.site import Site

GAMES = ["midnight-bakery", "cakehalla"]
QUICK = "/games/quick/"


@dataclass
class Config:
    """The sizes of a soak."""

    people: int
    minutes: float
    sample: float
    think: float
    timeout: float
    game_minutes: float
    seed: int
    setup: str


def config() -> Config:
    """Read the sizes from the environment."""
    env = os.environ.get
    return Config(
        people=int(env("BENCH_SOAK_PEOPLE", "6")),
        minutes=float(env("BENCH_SOAK_MINUTES", "60")),
        sample=float(env("BENCH_SOAK_SAMPLE", "30")),
        think=float(env("BENCH_SOAK_THINK", "0.3")),
        timeout=float(env("BENCH_SOAK_TIMEOUT", "10")),
        game_minutes=float(env("BENCH_SOAK_GAME_MINUTES", "10")),
        seed=int(env("BENCH_SOAK_SEED", "1")),
        setup=env("BENCH_SOAK_SETUP", "postgres"),
    )


@dataclass
class Soak:
    """What the soak counts, shared by every person."""

    tally: Tally = field(default_factory=Tally)
    started: int = 0
    finished: int = 0
    by_game: Counter[str] = field(default_factory=Counter)
    samples: list[tuple[float, float, int, int]] = field(default_factory=list)

    @property
    def moves(self) -> int:
        """The people's moves the site took so far."""
        return sum(self.tally.accepted.values())

    def errors(self) -> int:
        """HTTP and socket errors so far."""
        return sum(self.tally.errors.values())


def rss_mb(pid: int) -> float:
    """The resident set of a process in MB (psutil if installed, else /proc/<pid>/status)."""
    try:
        import psutil
    except ImportError:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        raise RuntimeError(f"no VmRSS for process {pid}") from None
    return float(psutil.Process(pid).memory_info().rss) / (1024 * 1024)


async def quick_game(person: Person, game: str) -> int:
    """The lobby's quick-game button for this game: the new table's id."""
    await person.open("/")
    form = next(
        (
            e
            for e in person.page.root.walk()
            if e.tag == "form"
            and e.attrs.get("action") == QUICK
            and any(i.attrs.get("value") == game for i in e.walk() if i.tag == "input")
        ),
        None,
    )
    if form is None:
        raise RuntimeError(f"no quick-game form for {game} in the lobby")
    answer = await person.http.post(QUICK, data=inputs(form), headers={"Referer": person.base})
    found = TABLE_URL.search(answer.headers.get("location", ""))
    if answer.status_code != 302 or found is None:
        raise RuntimeError(f"quick game refused ({answer.status_code})")
    return int(found.group(1))


async def one_game(person: Person, game: str, soak: Soak, cfg: Config, until: float) -> None:
    """Start a quick game, open its page and socket, and play it to its end (or the deadline)."""
    tally = soak.tally
    table = Table([person], game, tally, cfg.timeout)
    try:
        table.game_id = await quick_game(person, game)
        soak.started += 1
        person.ended = f"/games/{table.game_id}/replay/"
        person.pushes = []
        person.last_poll = 0.0
        await person.open(f"/games/{table.game_id}/")
        await person.connect()
        table.readers.append(asyncio.create_task(table.read(0)))
        table.readers.append(asyncio.create_task(table.poll(0)))
        rng = random.Random(f"{cfg.seed}-{person.name}-{soak.started}")
        stop = min(until, time.perf_counter() + 60 * cfg.game_minutes)
        await play(person, table, POLICIES[game], rng, cfg.think, stop)
        if table.over():
            soak.finished += 1
            soak.by_game[game] += 1
        elif time.perf_counter() < until:
            tally.errors["game not over in time"] += 1
    except httpx.HTTPStatusError as exc:
        tally.errors[f"HTTP {exc.response.status_code}"] += 1
    except (httpx.HTTPError, OSError, WebSocketException, RuntimeError) as exc:
        tally.errors[f"game: {type(exc).__name__}: {exc}"[:80]] += 1
        await asyncio.sleep(1.0)  # not a tight loop of failures
    finally:
        await table.leave()


async def person_loop(person: Person, first: int, soak: Soak, cfg: Config, until: float) -> None:
    """One person's evening: quick games, the two games by turns, until the deadline."""
    turn = first
    try:
        while time.perf_counter() < until:
            await one_game(person, GAMES[turn % len(GAMES)], soak, cfg, until)
            turn += 1
    finally:
        await person.close()


async def sampler(pid: int, soak: Soak, cfg: Config, began: float, until: float) -> None:
    """Print the Daphne process's RSS, the games finished and the moves, every sample."""

    def one() -> None:
        minute = (time.perf_counter() - began) / 60
        rss = rss_mb(pid)
        soak.samples.append((minute, rss, soak.finished, soak.moves))
        print(
            f"   {minute:6.1f} min  RSS {rss:7.1f} MB  games {soak.finished:6d}"
            f"  moves {soak.moves:7d}  errors {soak.errors()}",
            flush=True,
        )

    one()
    while (left := until - time.perf_counter()) > 0:
        await asyncio.sleep(min(cfg.sample, left))
        if time.perf_counter() < until - 0.5:
            one()
    one()  # at the end


async def soak_run(site: Site, sessions: dict[str, str], cfg: Config) -> Soak:
    """Everyone plays until the deadline while the sampler watches the process."""
    soak = Soak()
    names = sorted(sessions, key=lambda n: int(n.rsplit("-", 1)[1]))[: cfg.people]
    people = [Person(name, sessions[name], site.urls[0], cfg.timeout) for name in names]
    began = time.perf_counter()
    until = began + 60 * cfg.minutes
    watching = asyncio.ensure_future(sampler(site.pids[0], soak, cfg, began, until))
    await asyncio.gather(
        *(person_loop(p, i, soak, cfg, until) for i, p in enumerate(people)),
        return_exceptions=False,
    )
    await watching
    return soak


def at_minute(samples: list[tuple[float, float, int, int]], minute: float) -> float:
    """The RSS of the sample nearest this minute."""
    return min(samples, key=lambda s: abs(s[0] - minute))[1]


def report(site: Site, soak: Soak, cfg: Config, logged: int) -> None:
    """The summary: RSS at the start, the half and the end; the last half's growth; the counts."""
    samples = soak.samples
    start, end = samples[0][1], samples[-1][1]
    half_minute = samples[-1][0] / 2
    half = at_minute(samples, half_minute)
    errors = soak.errors()
    print(f"-- soak: {site.label}, {cfg.people} people, {cfg.minutes:g} min, quick games vs bots")
    print(
        f"   RSS at start {start:.1f} MB, at the half ({half_minute:.1f} min) {half:.1f} MB,"
        f" at the end {end:.1f} MB"
    )
    growth = f"{end - half:+.1f} MB (over the whole: {end - start:+.1f} MB)"
    print(f"   growth over the last half: {growth}")
    print(
        f"   games started {soak.started}, finished {soak.finished} {dict(soak.by_game)};"
        f" moves {soak.moves}; refused {sum(soak.tally.refused.values())}"
    )
    print(
        f"   errors: HTTP and socket {errors} {dict(soak.tally.errors) or ''};"
        f" server errors logged {logged}"
    )


def make_site(cfg: Config) -> Site:
    """One Daphne process: on PostgreSQL + Redis, or make run's defaults (the tests' pass)."""
    if cfg.setup == "postgres":
        return sites.postgres_site(1)
    if cfg.setup == "sqlite":
        return sites.sqlite_site()
    raise SystemExit(f"Unknown set-up {cfg.setup!r}: use postgres or sqlite.")


def main() -> None:
    """Set the site up, soak it, report, and drop the throwaway database."""
    more_files()
    cfg = config()
    site = make_site(cfg)
    try:
        began = time.monotonic()
        sessions = sites.prepare(site, cfg.people)
        print(f"== {site.label}: ready, {len(sessions)} people ({time.monotonic() - began:.0f} s)")
        print(f"   sampling RSS every {cfg.sample:g} s for {cfg.minutes:g} min", flush=True)
        with sites.running(site):
            print(f"   Daphne pid {site.pids[0]}", flush=True)
            soak = asyncio.run(soak_run(site, sessions, cfg))
        report(site, soak, cfg, sites.log_errors(site))
    finally:
        sites.drop(site)


if __name__ == "__main__":
    main()
