"""Quick pairing's pass with many people waiting (issue 39: 500 waiting, a pass under 50 ms).

In-process, on a throwaway database (bench/_site_setup.py), medians of BENCH_PAIRING_RUNS (7):

- the draw alone (games.pairing.draw.pair) over BENCH_PAIRING_PEOPLE (500) random seekers of
  one game and pace (counts, ratings around 1500, waits up to a minute, some asking for bots,
  a block per ten people), and over the same number spread over both games and three paces:
  most of them are paired;
- a whole pass in the database (services.pass_pool: the pool locked, the seeks read and
  locked, who left or sat down elsewhere, the blocks, the draw) with that many waiting in one
  pool where nobody can start yet (the steady state between arrivals): what every process's
  sweep costs each second;
- a pass that seats BENCH_PAIRING_TABLES (20) tables of two (each through seat_people), and
  what each table adds.

CPU (time.process_time) and wall time are printed; nothing is asserted.
"""

from __future__ import annotations

import os
import random
import statistics
import time
from collections.abc import Callable
from datetime import timedelta
from functools import partial
from typing import Any

from bench._site_setup import django_on_a_throwaway_database

RUNS = int(os.environ.get("BENCH_PAIRING_RUNS", "7"))
PEOPLE = int(os.environ.get("BENCH_PAIRING_PEOPLE", "500"))
TABLES = int(os.environ.get("BENCH_PAIRING_TABLES", "20"))
KINDS = {"midnight-bakery": (2, 8), "cakehalla": (2, 4)}


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def medians(fn: Callable[[], Any], before: Callable[[], Any] | None = None) -> tuple[float, float]:
    """Median CPU and wall seconds of RUNS calls (each after `before`, not timed)."""
    cpu, wall = [], []
    for _ in range(RUNS):
        if before is not None:
            before()
        c, w = time.process_time(), time.perf_counter()
        fn()
        cpu.append(time.process_time() - c)
        wall.append(time.perf_counter() - w)
    return statistics.median(cpu), statistics.median(wall)


def random_seekers(seed: int, one_pool: bool) -> tuple[list[Any], frozenset[tuple[int, int]]]:
    """PEOPLE random seekers (one game and pace, or spread) and a block per ten people."""
    from games.pairing import draw

    rng = random.Random(seed)
    seekers = []
    for person in range(PEOPLE):
        kind = "midnight-bakery" if one_pool else rng.choice(list(KINDS))
        low, high = KINDS[kind]
        fewest = rng.randint(low, high)
        most = rng.choice([fewest, high, rng.randint(fewest, high)])
        seekers.append(
            draw.Seeker(
                person=person,
                kind=kind,
                pace="fast" if one_pool else rng.choice(["relaxed", "normal", "fast"]),
                fewest=fewest,
                most=most,
                rating=int(rng.gauss(1500, 250)),
                since=rng.uniform(0, 60),
                bots_after=rng.choice([None, None, 30.0]),
            )
        )
    pairs = [(rng.randrange(PEOPLE), rng.randrange(PEOPLE)) for _ in range(PEOPLE // 10)]
    return seekers, draw.blocked_set(pairs)


def draw_alone() -> None:
    from games.pairing import draw

    for one_pool in (True, False):
        seekers, blocked = random_seekers(7, one_pool)
        groups = draw.pair(seekers, 60.0, blocked)
        cpu, _ = medians(partial(draw.pair, seekers, 60.0, blocked))
        seated = sum(len(g.people) for g in groups)
        where = "one game and pace" if one_pool else "two games, three paces"
        print(
            f"draw alone, {PEOPLE} waiting ({where}): {ms(cpu)} CPU; "
            f"{len(groups)} tables, {seated} seated"
        )


def waiting_people(prefix: str, count: int) -> list[Any]:
    """People who log in by session only, made in bulk."""
    from accounts.models import User

    User.objects.bulk_create(
        [User(username=f"{prefix}{i}", password="!") for i in range(count)], batch_size=500
    )
    return list(User.objects.filter(username__startswith=prefix).order_by("pk"))


def seeks_for(people: list[Any], ratings: Callable[[int], int], **fields: Any) -> None:
    """A fresh seek for each person (the i-th rated ratings(i)), all looking from now on."""
    from games.pairing import services
    from games.pairing.models import Seek

    at = services.now()
    Seek.objects.filter(user__in=people).delete()
    Seek.objects.bulk_create(
        [
            Seek(user=p, rating=ratings(i), created_at=at, last_seen=at, **fields)
            for i, p in enumerate(people)
        ]
    )


def pass_with_nobody_ready() -> None:
    """PEOPLE waiting in one pool, none of whom can start yet: the pass reads and draws them."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from games.pairing import services

    people = waiting_people("waiting", PEOPLE)
    # Everyone accepts any count of Midnight Bakery, 30 rating points apart: no eight fit one
    # another's windows yet, and nobody has waited long enough to start short of eight.
    seeks_for(
        people, lambda i: 1500 + 30 * i, kind="midnight-bakery", pace="fast", fewest=2, most=8
    )
    with CaptureQueriesContext(connection) as queries:
        assert services.pass_pool("midnight-bakery", "fast") == []
    cpu, wall = medians(lambda: services.pass_pool("midnight-bakery", "fast"))
    print(
        f"a pass in the database, {PEOPLE} waiting, nobody can start yet: {ms(cpu)} CPU, "
        f"{ms(wall)} wall, {len(queries.captured_queries)} queries"
    )


def pass_that_seats() -> None:
    """TABLES tables of two seated by one pass (each through seat_people)."""
    from games.pairing import services

    people = waiting_people("pairs", 2 * TABLES)

    def ready() -> None:
        # Pairs: each person within the window of the one beside them only.
        seeks_for(
            people,
            lambda i: 1500 + 1000 * (i // 2),
            kind="cakehalla",
            pace="fast",
            fewest=2,
            most=2,
        )

    made: list[int] = []
    cpu, wall = medians(
        lambda: made.append(len(services.pass_pool("cakehalla", "fast"))), before=ready
    )
    per_table = cpu / max(1, TABLES)
    print(
        f"a pass that seats {made[-1]} tables of two: {ms(cpu)} CPU, {ms(wall)} wall; "
        f"{ms(per_table)} CPU a table"
    )


def main() -> None:
    start = time.perf_counter()
    with django_on_a_throwaway_database() as label:
        print(f"quick pairing on {label}, medians of {RUNS}")
        draw_alone()
        pass_with_nobody_ready()
        pass_that_seats()
    print(f"pairing bench took {timedelta(seconds=round(time.perf_counter() - start))}")


if __name__ == "__main__":
    main()
