"""make soak: does one Daphne process's memory level off? People spend an evening on the site
while its RSS is sampled (issue 29: "an hour's soak whose last half grows less than 10 MB";
issue 41: with notifications, friends, tutorials and turn-based tables in play).

One Daphne process (DEBUG=0) on a throwaway PostgreSQL database and Redis, as bench-web starts
them (bench/web/site.py). Each person, in rounds until the deadline, makes one visit of each
kind in an order drawn from BENCH_SOAK_SEED (bench/soak/tables.py, social.py, tutorial.py):

- quick games: the lobby's quick-game form (the two games by turns), the table page and its
  socket, the moves the page offers sent as live.js sends them, to the game's results;
- notifications: the menu's badge, the inbox, its invitations and newest unread notification
  followed (an invitation's table joined), "Mark all read";
- friends: the friends page's requests answered (most accepted), else someone's page and its
  Add friend (under the hourly limit), Accept or Remove friend, so friendships come and go;
- tutorials: a game's How to play, its "Learn by playing", and the guided game to its end,
  each step read after each swap and the control it points at pressed;
- turn-based: "Your games", and at the first table waiting on them a few moves (the bot's or
  the friend's answers between visits, with their turn notifications); else a table they host
  started once the invited friend sat (or with a bot), else a new turn-based table of two with
  a friend invited from its panel (or a bot seated).

The Daphne process's RSS is printed every sample with the games finished, the moves and the
visits so far; then the RSS at the start, the half and the end, the growth over the last half,
and per kind of visit what it did, its refusals told in words and its errors (HTTP, socket),
and the server errors in the Daphne log.

Sizes from the environment: BENCH_SOAK_PEOPLE (6), BENCH_SOAK_MINUTES (60), BENCH_SOAK_SAMPLE
(30 s between samples), BENCH_SOAK_THINK (0.3 s mean before each tap), BENCH_SOAK_TIMEOUT (10 s
for a request or an answer), BENCH_SOAK_GAME_MINUTES (10: a quick game not over by then counts
as an error; a tutorial or a turn-based visit stops there), BENCH_SOAK_SEED (1),
BENCH_SOAK_SETUP (postgres; sqlite is make run's defaults, for the tests' short pass without a
PostgreSQL server). BENCH_DATABASE_URL and BENCH_REDIS_URL name the servers (127.0.0.1 only).
BENCH_WEB_KEEP_LOGS=1 keeps the Daphne log.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import httpx
from websockets.exceptions import WebSocketException

from bench.soak.people import Config, Soak, Someone, config
from bench.soak.social import FRIENDS, NOTIFICATIONS, friends, notifications
from bench.soak.tables import QUICK_GAMES, TURN_BASED, quick_games, turn_based
from bench.soak.tutorial import TUTORIALS, tutorial
from bench.web import site as sites
from bench.web.__main__ import more_files
from bench.web.client import Person
from bench.web.site import Site

Visit = Callable[[Someone, Soak, Config, float], Awaitable[None]]
VISITS: dict[str, Visit] = {
    QUICK_GAMES: quick_games,
    NOTIFICATIONS: notifications,
    FRIENDS: friends,
    TUTORIALS: tutorial,
    TURN_BASED: turn_based,
}


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


async def visit(kind: str, me: Someone, soak: Soak, cfg: Config, until: float) -> None:
    """One visit; what fails is counted as this kind's error (and paced: no tight loop)."""
    try:
        await VISITS[kind](me, soak, cfg, until)
    except httpx.HTTPStatusError as exc:
        soak.error(kind, f"HTTP {exc.response.status_code} {exc.request.url.path}")
        await asyncio.sleep(1.0)
    except (httpx.HTTPError, OSError, WebSocketException, RuntimeError, TimeoutError) as exc:
        soak.error(kind, f"{type(exc).__name__}: {exc}")
        await asyncio.sleep(1.0)
    else:
        soak.visits[kind] += 1


async def evening(me: Someone, soak: Soak, cfg: Config, until: float) -> None:
    """One person's evening: rounds of one visit of each kind, in an order drawn each round."""
    try:
        while time.perf_counter() < until:
            kinds = list(VISITS)
            me.rng.shuffle(kinds)
            for kind in kinds:
                if time.perf_counter() >= until:
                    break
                await visit(kind, me, soak, cfg, until)
    finally:
        await me.person.close()


async def sampler(pid: int, soak: Soak, cfg: Config, began: float, until: float) -> None:
    """Print the Daphne process's RSS, the games finished, the moves and the visits, every
    sample."""

    def one() -> None:
        minute = (time.perf_counter() - began) / 60
        rss = rss_mb(pid)
        soak.samples.append((minute, rss, soak.games, soak.moves))
        print(
            f"   {minute:6.1f} min  RSS {rss:7.1f} MB  games {soak.games:5d}"
            f"  moves {soak.moves:6d}  visits {sum(soak.visits.values()):5d}"
            f"  errors {soak.errors()}",
            flush=True,
        )

    one()
    while (left := until - time.perf_counter()) > 0:
        await asyncio.sleep(min(cfg.sample, left))
        if time.perf_counter() < until - 0.5:
            one()
    one()  # at the end


async def soak_run(site: Site, sessions: dict[str, str], cfg: Config) -> Soak:
    """Everyone spends the evening until the deadline while the sampler watches the process."""
    soak = Soak()
    names = sorted(sessions, key=lambda n: int(n.rsplit("-", 1)[1]))[: cfg.people]
    people = [
        Someone(
            Person(name, sessions[name], site.urls[0], cfg.timeout),
            [n for n in names if n != name],
            random.Random(f"{cfg.seed}-{name}"),
        )
        for name in names
    ]
    began = time.perf_counter()
    until = began + 60 * cfg.minutes
    watching = asyncio.ensure_future(sampler(site.pids[0], soak, cfg, began, until))
    await asyncio.gather(*(evening(me, soak, cfg, until) for me in people))
    await watching
    return soak


def at_minute(samples: list[tuple[float, float, int, int]], minute: float) -> float:
    """The RSS of the sample nearest this minute."""
    return min(samples, key=lambda s: abs(s[0] - minute))[1]


def kind_line(soak: Soak, kind: str) -> str:
    """One kind of visit in the summary: visits, errors, what they did, moves, refusals."""
    tally = soak.tally(kind)
    did = ", ".join(f"{what} {n}" for what, n in sorted(soak.did.get(kind, {}).items()))
    line = f"   {kind}: {soak.visits[kind]} visits, {soak.errors(kind)} errors; {did or 'nothing'}"
    moves = sum(tally.accepted.values())
    if moves:
        line += f"; moves {moves}"
    if tally.refused:
        line += f"; refused in words {sum(tally.refused.values())} {dict(tally.refused)}"
    if tally.errors:
        line += f"; errors {dict(tally.errors)}"
    return line


def report(site: Site, soak: Soak, cfg: Config, logged: int) -> None:
    """The summary: RSS at the start, the half and the end; the last half's growth; the counts."""
    samples = soak.samples
    start, end = samples[0][1], samples[-1][1]
    half_minute = samples[-1][0] / 2
    half = at_minute(samples, half_minute)
    print(f"-- soak: {site.label}, {cfg.people} people, {cfg.minutes:g} min: {', '.join(VISITS)}")
    print(
        f"   RSS at start {start:.1f} MB, at the half ({half_minute:.1f} min) {half:.1f} MB,"
        f" at the end {end:.1f} MB"
    )
    growth = f"{end - half:+.1f} MB (over the whole: {end - start:+.1f} MB)"
    print(f"   growth over the last half: {growth}")
    for kind in VISITS:
        print(kind_line(soak, kind))
    print(
        f"   games finished {soak.games}; moves {soak.moves}; errors {soak.errors()};"
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
