"""bench-web's tournament scenarios (issue 39), each on freshly started Daphne processes of the
set-up, its event made and started through the tournament services (bench/web/tourney.py):

- arena: a Midnight Bakery arena of BENCH_WEB_ARENA_PEOPLE (200: 50 tables of four) beside
  BENCH_WEB_ARENA_BESIDE (50) ordinary tables, played as the table runs play them: move to every
  screen, for each kind of table and all; an arena table that ends sends its people on (page.go)
  and they sit down where the site sent them.
- swiss: a Swiss round of BENCH_WEB_SWISS_PEOPLE (200) starting while each person has a page
  open (a waiting table of their own, whose socket hears their pushes): from the round's pairing
  until every page shows its new board (page.go followed, the table page loaded).
- standings: a running tournament of BENCH_WEB_STANDINGS_ENTRANTS (1,000) people, its page
  asked BENCH_WEB_STANDINGS_GETS (300) times by BENCH_WEB_STANDINGS_CLIENTS (4) browsers at
  once, half of them signed in: the answer's time.
"""

from __future__ import annotations

import asyncio
import gc
import json
import os
import random
import subprocess
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import httpx

from bench.web import site as sites
from bench.web.client import (
    TABLE_URL,
    TLS,
    Person,
    Table,
    Tally,
    keep_playing,
    lag_probe,
    percentile,
    play,
    router,
    stale_sockets,
)
from bench.web.players import POLICIES
from bench.web.site import Site

ARENA_PEOPLE = int(os.environ.get("BENCH_WEB_ARENA_PEOPLE", "200"))
ARENA_BESIDE = int(os.environ.get("BENCH_WEB_ARENA_BESIDE", "50"))
SWISS_PEOPLE = int(os.environ.get("BENCH_WEB_SWISS_PEOPLE", "200"))
STANDINGS_ENTRANTS = int(os.environ.get("BENCH_WEB_STANDINGS_ENTRANTS", "1000"))
STANDINGS_GETS = int(os.environ.get("BENCH_WEB_STANDINGS_GETS", "300"))
STANDINGS_CLIENTS = int(os.environ.get("BENCH_WEB_STANDINGS_CLIENTS", "4"))
SCENARIOS = ("arena", "swiss", "standings")
GAME = "midnight-bakery"
SEATS = 4
SETUP_CONCURRENCY = 8
GATHER_SECONDS = 1.0  # the people sent to one table hear it from one commit
SENT_WITHIN = 60.0  # a Swiss page not sent on by then counts as an error


def people_needed(cfg: Any) -> int:
    """How many people (sessions) the scenarios asked for need."""
    scenarios = cfg.scenarios
    return max(
        ARENA_PEOPLE + SEATS * ARENA_BESIDE if "arena" in scenarios else 0,
        SWISS_PEOPLE if "swiss" in scenarios else 0,
        STANDINGS_CLIENTS if "standings" in scenarios else 0,
    )


def ordered(sessions: dict[str, str]) -> list[str]:
    """The people's names in their order (bench-0, bench-1, ...)."""
    return sorted(sessions, key=lambda n: int(n.rsplit("-", 1)[1]))


def step(site: Site, name: str, **args: Any) -> dict[str, Any]:
    """One set-up step of bench/web/tourney.py, run with the site's environment."""
    try:
        out = sites.manage(site, "-m", "bench.web.tourney", name, json.dumps(args))
    except subprocess.CalledProcessError as failed:
        raise SystemExit(f"The set-up step {name} failed:\n{failed.stderr}") from None
    answer: dict[str, Any] = json.loads(out)
    return answer


async def gated(work: list[Any]) -> list[Any]:
    """Run the coroutines a few at a time (as people arriving would); their results."""
    gate = asyncio.Semaphore(SETUP_CONCURRENCY)

    async def one(coroutine: Any) -> Any:
        async with gate:
            return await coroutine

    return list(await asyncio.gather(*(one(w) for w in work)))


async def sat_down(table: Table, game_id: int) -> bool:
    """Open the table's pages and sockets; a failure is counted and leaves the table out."""
    try:
        await table.sit_down(game_id)
    except (httpx.HTTPError, OSError, RuntimeError) as exc:
        table.tally.errors[f"sitting down: {type(exc).__name__}"] += 1
        await table.leave()
        return False
    return True


def cpu_share(cpu: list[float], wall: float) -> str:
    """Each Daphne process's CPU as a share of a core."""
    return " + ".join(f"{100 * c / wall:.0f}%" for c in cpu) or "n/a"


def spans(values: list[float]) -> str:
    """p50, p95 and p99 of seconds, in ms."""
    ms = [1000 * v for v in values]
    return (
        f"p50 {percentile(ms, 50):.0f} ms  p95 {percentile(ms, 95):.0f} ms"
        f"  p99 {percentile(ms, 99):.0f} ms"
    )


# --- an arena beside ordinary tables ---------------------------------------------------------


@dataclass
class Floor:
    """An arena's people between tables: each is sent on by page.go and sits down with whoever
    was sent to the same table."""

    tally: Tally
    think: float
    timeout: float
    route: Any
    rng: random.Random
    until: float
    arriving: dict[str, list[Person]] = field(default_factory=dict)
    tables: list[Table] = field(default_factory=list)
    tasks: list[asyncio.Task[None]] = field(default_factory=list)
    reseated: int = 0

    async def play(self, table: Table) -> None:
        """Play the arena table to its end (or the run's), then follow its people on."""
        self.tables.append(table)
        policy = POLICIES[table.game]
        people = table.people
        await asyncio.gather(
            *(play(p, table, policy, self.rng, self.think, self.until) for p in people)
        )
        if not table.over():
            return
        table.tally.finished += 1
        table.closing = True  # nothing reconnects; each socket closes once its person moves on
        await asyncio.gather(*(self.sent_on(person) for person in table.people))
        for reader in table.readers:
            reader.cancel()

    async def sent_on(self, person: Person) -> None:
        """Wait (on the finished table's socket) to be sent on, then go there."""
        try:
            await asyncio.wait_for(person.went.wait(), max(0.0, self.until - time.perf_counter()))
        except TimeoutError:
            return
        old, person.socket = person.socket, None
        if old is not None:
            await old.close()
        group = self.arriving.setdefault(person.go_to, [])
        group.append(person)
        if len(group) == 1:
            self.tasks.append(asyncio.create_task(self.sit(person.go_to)))

    async def sit(self, url: str) -> None:
        """The people sent to one table sit down at it together and play."""
        await asyncio.sleep(GATHER_SECONDS)
        people = self.arriving.pop(url)
        found = TABLE_URL.search(url)
        if found is None or time.perf_counter() >= self.until:
            return
        table = Table(people, GAME, self.tally, self.timeout, self.route)
        if await sat_down(table, int(found.group(1))):
            self.reseated += 1
            await self.play(table)


@dataclass
class ArenaOutcome:
    """What an arena run measured."""

    arena: Tally
    beside: Tally
    wall: float
    cpu: list[float]
    tables: int
    reseated: int
    lags: list[float]


async def arena_run(site: Site, sessions: dict[str, str], cfg: Any) -> ArenaOutcome:
    """The arena's tables and the ordinary ones, played side by side for cfg.seconds."""
    names = ordered(sessions)
    entrants, others = (
        names[:ARENA_PEOPLE],
        names[ARENA_PEOPLE : ARENA_PEOPLE + SEATS * ARENA_BESIDE],
    )
    minutes = max(10, int(cfg.seconds // 60) + 10)
    made = await asyncio.to_thread(step, site, "arena", people=entrants, minutes=minutes)
    urls, route = site.urls, router(cfg.route, site.urls)
    arena_tally, beside_tally, lags = Tally(), Tally(), Tally()
    seated: dict[int, list[Person]] = {}
    for n, name in enumerate(entrants):
        person = Person(name, sessions[name], urls[n % len(urls)], cfg.timeout)
        seated.setdefault(int(made["tables"][name]), []).append(person)
    arena_tables = {
        gid: Table(people, GAME, arena_tally, cfg.timeout, route) for gid, people in seated.items()
    }
    beside = [
        Table(
            [
                Person(n, sessions[n], urls[(t + k) % len(urls)], cfg.timeout)
                for k, n in enumerate(others[t * SEATS : (t + 1) * SEATS])
            ],
            GAME,
            beside_tally,
            cfg.timeout,
            route,
        )
        for t in range(len(others) // SEATS)
    ]
    rng = random.Random(cfg.seed)
    probe = asyncio.ensure_future(lag_probe(lags))
    floor: Floor | None = None
    try:
        sitting = [sat_down(table, gid) for gid, table in arena_tables.items()]
        sat = await gated(sitting)
        await gated([table.seat_or_count() for table in beside])
        playing_arena = [t for t, ok in zip(arena_tables.values(), sat, strict=True) if ok]
        until = time.perf_counter() + cfg.seconds
        floor = Floor(arena_tally, cfg.think, cfg.timeout, route, rng, until)
        gc.collect()
        gc.disable()  # as the table runs measure (bench/web/__main__.py)
        cpu0, t0 = sites.cpu_seconds(site), time.perf_counter()
        for tally in (arena_tally, beside_tally, lags):
            tally.measuring = True
            tally.errors_before = sum(tally.errors.values())
        print(
            f"   arena of {len(entrants)} at {tables(len(playing_arena))} beside"
            f" {tables(len(beside))}; measuring {cfg.seconds:.0f} s",
            flush=True,
        )
        await asyncio.gather(
            *(floor.play(t) for t in playing_arena),
            *(keep_playing(t, cfg.think, rng, until) for t in beside),
        )
        await asyncio.gather(*floor.tasks, return_exceptions=True)
        wall = time.perf_counter() - t0
        cpu = [b - a for a, b in zip(cpu0, sites.cpu_seconds(site), strict=True)]
        for tally in (arena_tally, beside_tally, lags):
            tally.measuring = False
        await asyncio.sleep(1.0)
        arena_tally.stale = stale_sockets([t for t in floor.tables if not t.closing])
        beside_tally.stale = stale_sockets(beside)
    finally:
        gc.enable()
        probe.cancel()
        everyone = {
            id(t): t for t in [*(floor.tables if floor else []), *arena_tables.values(), *beside]
        }
        for table in everyone.values():  # an arena table's people may sit at a later one now
            table.closing = True
        for table in everyone.values():
            await table.leave()
        people = {id(p): p for t in everyone.values() for p in t.people}
        for person in people.values():
            await person.close()
        await asyncio.to_thread(step, site, "stop", tournament=made["tournament"])
    assert floor is not None
    return ArenaOutcome(
        arena_tally, beside_tally, wall, cpu, len(arena_tables), floor.reseated, lags.lags
    )


def tables(count: int) -> str:
    """ "1 table", "50 tables"."""
    return f"{count} table{'s' if count != 1 else ''}"


def tables_line(site: Site, label: str, tally: Tally) -> str:
    """One kind of table's figures."""
    stored = sites.people_moves(site, tally.games)
    lost = sum(max(0, n - stored.get(g, 0)) for g, n in tally.accepted.items())
    errors = sum(tally.errors.values())
    return (
        f"   {label}: move to every screen {spans(tally.latencies)} ({len(tally.latencies)} moves"
        f" measured); errors {errors} ({tally.errors_before} before the clock)"
        f" {dict(tally.errors) or ''} refused {sum(tally.refused.values())}  lost moves {lost}"
        f"  stale sockets {tally.stale}  games finished {tally.finished}"
    )


def arena_report(site: Site, out: ArenaOutcome, cfg: Any) -> None:
    """Print an arena run's figures."""
    both = out.arena.latencies + out.beside.latencies
    moves = out.arena.measured + out.beside.measured
    print(
        f"-- arena: Midnight Bakery, {ARENA_PEOPLE} people beside {tables(ARENA_BESIDE)} of four,"
        f" {site.label}, {cfg.seconds:.0f} s"
    )
    print(f"   every table: move to every screen {spans(both)} ({len(both)} moves measured)")
    print(tables_line(site, f"arena ({tables(out.tables)})", out.arena))
    print(tables_line(site, f"ordinary ({tables(ARENA_BESIDE)})", out.beside))
    cpu_move = 1000 * sum(out.cpu) / moves if moves else 0.0
    logged = sites.log_errors(site) if not site.external else "n/a"
    print(
        f"   arena tables seated again after their end: {out.reseated};"
        f"  server CPU {cpu_share(out.cpu, out.wall)} of a core ({cpu_move:.0f} ms a move);"
        f"  server errors logged {logged};  generator loop lag {spans(out.lags)}"
    )


# --- a Swiss round's start -------------------------------------------------------------------


@dataclass
class SwissOutcome:
    """What a Swiss round's start measured: per page, when it heard page.go and when its new
    board was shown (epoch seconds), and the round as the site made it."""

    moved: list[tuple[float, float, float]]
    errors: Counter[str]
    t0: float
    paired_at: float | None
    tables: int
    skipped: int
    people: int
    cpu: list[float]
    wall: float
    lags: list[float]


async def board_shown(
    person: Person, route: Any, errors: Counter[str]
) -> tuple[float, float, float] | None:
    """Wait for the person's page to be sent on, then load the new table's page: when it heard
    page.go, when the page's answer came, when its board was shown (epoch seconds)."""
    try:
        await asyncio.wait_for(person.went.wait(), SENT_WITHIN)
    except TimeoutError:
        errors["page not sent on in time"] += 1
        return None
    heard = time.time()
    found = TABLE_URL.search(person.go_to)
    process = route(int(found.group(1))) if found else None
    if process is not None:
        person.route(process)
    if person.swap_in(person.go_to):  # live.js: the new table's part came with page.go
        return heard, heard, time.time()
    try:
        answer = await person.http.get(person.go_to)
        answer.raise_for_status()
    except (httpx.HTTPError, OSError) as exc:
        errors[f"table page: {type(exc).__name__}"] += 1
        return None
    answered = time.time()
    person.show(person.go_to, answer.text)  # as Person.open, the answer's time noted apart
    if person.page.version() is None:
        errors["table page without its board"] += 1
        return None
    return heard, answered, time.time()


async def warm_up(urls: list[str], path: str, timeout: float) -> None:
    """Each process draws a running table's page once (its templates compiled, as a serving
    process's are after its first minutes), so the round measures the round."""
    for base in urls:
        async with httpx.AsyncClient(base_url=base, timeout=timeout, verify=TLS) as client:
            (await client.get(path)).raise_for_status()


async def swiss_run(site: Site, sessions: dict[str, str], cfg: Any) -> SwissOutcome:
    """Everyone's page open, the round's start brought to now; until every page shows its board."""
    names = ordered(sessions)[:SWISS_PEOPLE]
    made = await asyncio.to_thread(step, site, "swiss", people=names, rounds=2)
    urls, route = site.urls, router(cfg.route, site.urls)
    tally, errors, lags = Tally(), Counter[str](), Tally()
    rooms = [
        (
            Table(
                [Person(n, sessions[n], urls[i % len(urls)], cfg.timeout)],
                GAME,
                tally,
                cfg.timeout,
                route,
            ),
            int(made["waiting"][n]),
        )
        for i, n in enumerate(names)
    ]
    try:
        opened = await gated([sat_down(room, gid) for room, gid in rooms])
        ready = [room.people[0] for (room, _), ok in zip(rooms, opened, strict=True) if ok]
        errors.update(tally.errors)
        await warm_up(urls, f"/games/{made['warm']}/", cfg.timeout)
        probe = asyncio.ensure_future(lag_probe(lags))
        lags.measuring = True
        cpu0, w0 = sites.cpu_seconds(site), time.perf_counter()
        go = await asyncio.to_thread(step, site, "go", tournament=made["tournament"])
        print(f"   {len(ready)} pages open; the round is due now", flush=True)
        shown = await asyncio.gather(*(board_shown(p, route, errors) for p in ready))
        wall = time.perf_counter() - w0
        probe.cancel()
        cpu = [b - a for a, b in zip(cpu0, sites.cpu_seconds(site), strict=True)]
        paired = await asyncio.to_thread(
            step, site, "round", tournament=made["tournament"], number=1
        )
    finally:
        for room, _ in rooms:
            await room.leave()
            for person in room.people:
                await person.close()
        await asyncio.to_thread(step, site, "stop", tournament=made["tournament"])
    return SwissOutcome(
        [s for s in shown if s is not None],
        errors,
        float(go["t0"]),
        paired["paired_at"],
        int(paired["tables"]),
        int(paired["skipped"]),
        len(names),
        cpu,
        wall,
        lags.lags,
    )


def swiss_report(site: Site, out: SwissOutcome) -> None:
    """Print a Swiss round start's figures."""
    print(f"-- Swiss round start: Midnight Bakery, {out.people} people, {site.label}")
    if out.paired_at is None:
        print(f"   the round was not paired; errors {dict(out.errors)}")
        return
    boards = [shown - out.paired_at for _, _, shown in out.moved]
    heard = [at - out.paired_at for at, _, _ in out.moved]
    asked = [answered - at for at, answered, _ in out.moved]
    due = [shown - out.t0 for _, _, shown in out.moved]
    print(
        f"   {out.tables} tables, {out.skipped} skipped as away; pages sent on and shown:"
        f" {len(out.moved)} of {out.people}"
    )
    print(
        f"   every page on its new board, from the pairing: {spans(boards)}"
        f"  max {1000 * max(boards, default=0):.0f} ms"
    )
    print(f"   the same from the start's due time (the sweep's wait too): {spans(due)}")
    print(
        f"   page.go heard, from the pairing: {spans(heard)} (the first after"
        f" {1000 * min(heard, default=0):.0f} ms: the pairing's own transaction)"
    )
    print(f"   the table page answered, from page.go heard: {spans(asked)}")
    print(f"   the generator's own loop lag meanwhile: {spans(out.lags)}")
    logged = sites.log_errors(site) if not site.external else "n/a"
    errors = sum(out.errors.values())
    print(
        f"   errors {errors} {dict(out.errors) or ''}  server errors logged {logged};"
        f"  server CPU {sum(out.cpu):.1f} s over {out.wall:.1f} s"
        f" ({cpu_share(out.cpu, out.wall)} of a core)"
    )


# --- the standings page of a big event -------------------------------------------------------


@dataclass
class StandingsOutcome:
    """What the standings page's answers measured."""

    url: str
    answers: list[float]
    sizes: list[int]
    errors: Counter[str]
    cpu: list[float]
    wall: float


async def standings_run(site: Site, sessions: dict[str, str], cfg: Any) -> StandingsOutcome:
    """STANDINGS_CLIENTS browsers asking for the page at once until STANDINGS_GETS answers."""
    made = await asyncio.to_thread(step, site, "standings", entrants=STANDINGS_ENTRANTS)
    url = str(made["url"])
    answers: list[float] = []
    sizes: list[int] = []
    errors: Counter[str] = Counter()
    if not url:
        return StandingsOutcome(url, answers, sizes, errors, [], 0.0)
    names = ordered(sessions)
    clients = []
    for i in range(STANDINGS_CLIENTS):
        client = httpx.AsyncClient(
            base_url=site.urls[i % len(site.urls)], timeout=cfg.timeout, verify=TLS
        )
        if i % 2 == 0 and names:
            client.cookies.set("sessionid", sessions[names[(i // 2) % len(names)]])
        clients.append(client)
    left = [STANDINGS_GETS]

    async def ask(client: httpx.AsyncClient) -> None:
        while left[0] > 0:
            left[0] -= 1
            sent = time.perf_counter()
            try:
                answer = await client.get(url)
            except (httpx.HTTPError, OSError) as exc:
                errors[type(exc).__name__] += 1
                continue
            if answer.status_code != 200:
                errors[f"HTTP {answer.status_code}"] += 1
                continue
            answers.append(time.perf_counter() - sent)
            sizes.append(len(answer.content))

    try:
        await asyncio.gather(*(c.get(url) for c in clients), return_exceptions=True)  # warm up
        cpu0, w0 = sites.cpu_seconds(site), time.perf_counter()
        await asyncio.gather(*(ask(c) for c in clients))
        wall = time.perf_counter() - w0
        cpu = [b - a for a, b in zip(cpu0, sites.cpu_seconds(site), strict=True)]
    finally:
        for client in clients:
            await client.aclose()
    return StandingsOutcome(url, answers, sizes, errors, cpu, wall)


def standings_report(site: Site, out: StandingsOutcome) -> None:
    """Print the standings page's figures."""
    print(f"-- standings page: {STANDINGS_ENTRANTS} entrants, {site.label}")
    if not out.url:
        print("   skipped: this site has no tournament page (tournaments:detail) yet")
        return
    n = len(out.answers)
    cpu = 1000 * sum(out.cpu) / n if n else 0.0
    size = sum(out.sizes) / n / 1024 if n else 0.0
    print(
        f"   answered: {spans(out.answers)} ({n} answers, {STANDINGS_CLIENTS} browsers at once,"
        f" {size:.0f} KB a page); errors {sum(out.errors.values())} {dict(out.errors) or ''}"
    )
    print(f"   server CPU {cpu:.1f} ms an answer ({cpu_share(out.cpu, out.wall)} of a core)")


def run(name: str, site: Site, sessions: dict[str, str], cfg: Any) -> None:
    """One scenario on freshly started Daphne processes, and its report."""
    with sites.running(site):
        if name == "arena":
            arena_report(site, asyncio.run(arena_run(site, sessions, cfg)), cfg)
        elif name == "swiss":
            swiss_report(site, asyncio.run(swiss_run(site, sessions, cfg)))
        elif name == "standings":
            standings_report(site, asyncio.run(standings_run(site, sessions, cfg)))
        else:
            raise SystemExit(f"Unknown scenario {name!r}: use tables, {', '.join(SCENARIOS)}.")
