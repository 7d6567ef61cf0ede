"""Tournament pairing's CPU (games/tournaments/draw.py, no database): medians of BENCH_TOURNEY_RUNS.

- A Swiss round of BENCH_TOURNEY_PEOPLE (1,000) into tables of four, after four rounds of
  history: a typical field (earlier tables drawn at random), and a hard one where every table
  of the straight cut met before (each must be traded apart), with 300 blocked pairs.
- An arena's re-seating when one table ends: the four people freed beside those still waiting
  (BENCH_TOURNEY_WAITING), among BENCH_TOURNEY_PEOPLE entrants.
Budgets (issue 39): under 200 ms a Swiss round, under 20 ms a finished arena table.
"""

from __future__ import annotations

import os
import random
import statistics
import time
from collections import Counter

from games.tournaments import draw, pairs, scoring

PEOPLE = int(os.environ.get("BENCH_TOURNEY_PEOPLE", "1000"))
RUNS = int(os.environ.get("BENCH_TOURNEY_RUNS", "9"))
WAITING = int(os.environ.get("BENCH_TOURNEY_WAITING", "3"))


def cpu_ms(fn) -> float:
    start = time.process_time()
    fn()
    return (time.process_time() - start) * 1000


def field(rng: random.Random) -> list[scoring.Standing]:
    return [
        scoring.Standing(
            i,
            rng.choice([0, 2, 4, 6, 8, 10, 12]),
            rng.randrange(60),
            rng.randrange(4),
            1300 + rng.randrange(500),
            rng.randrange(2),
        )
        for i in range(1, PEOPLE + 1)
    ]


def random_history(rng: random.Random, rounds: int) -> Counter[pairs.Pair]:
    met: Counter[pairs.Pair] = Counter()
    for _ in range(rounds):
        ids = rng.sample(range(1, PEOPLE + 1), PEOPLE)
        for at in range(0, PEOPLE, 4):
            met.update(pairs.pairs_of(ids[at : at + 4]))
    return met


def swiss() -> None:
    rng = random.Random(39)
    people = field(rng)
    typical = random_history(rng, 4)
    hard = Counter(typical)
    order = [s.entrant for s in scoring.ranked(people)]
    for at in range(0, PEOPLE, 4):
        hard.update(pairs.pairs_of(order[at : at + 4]))
    blocked = {pairs.pair(*rng.sample(range(1, PEOPLE + 1), 2)) for _ in range(300)}
    for label, met, blocks in (("typical", typical, set()), ("hard", hard, blocked)):
        times = [
            cpu_ms(lambda m=met, b=blocks: draw.swiss(people, 4, 3, m, b)) for _ in range(RUNS)
        ]
        seating = draw.swiss(people, 4, 3, met, blocks)
        repeats = sum(met.get(p, 0) for t in seating.tables for p in pairs.pairs_of(t))
        print(
            f"Swiss round of {PEOPLE} into tables of 4 ({label}): "
            f"{statistics.median(times):.1f} ms CPU median, {len(seating.tables)} tables, "
            f"{repeats} repeat meetings left"
        )


def arena() -> None:
    rng = random.Random(40)
    now = 10_000.0
    times = []
    for _ in range(RUNS * 20):
        freed = [
            draw.Free(
                i,
                rng.randrange(40),
                1300 + rng.randrange(500),
                now,
                frozenset(rng.sample(range(1, PEOPLE + 1), 3)),
            )
            for i in rng.sample(range(1, PEOPLE + 1), 4 + WAITING)
        ]
        blocked = {pairs.pair(*rng.sample([f.entrant for f in freed], 2))}
        times.append(cpu_ms(lambda f=freed, b=blocked: draw.arena(f, 4, 3, now, 20.0, b)))
    print(
        f"arena re-seating of a finished table ({4 + WAITING} free of {PEOPLE}): "
        f"{statistics.median(times):.3f} ms CPU median"
    )


def main() -> None:
    swiss()
    arena()


if __name__ == "__main__":
    main()
