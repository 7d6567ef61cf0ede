"""The Midnight Bakery master against greedy bakers: its share of the wins, and its CPU a decision.

At each table size (BENCH_MB_MASTER_TABLES, "4,2"), BENCH_MB_MASTER_NIGHTS (20) nights, the
master in a seat that rotates night by night, every other baker greedy, each night its own seed.
The master thinks BENCH_MB_MASTER_SECONDS (its default, 0.25) of CPU a decision; a smaller
budget can only make it weaker, so a figure measured with one is a lower bound.
BENCH_MB_MASTER_WORKERS (1) processes share the nights (the final, long runs use 2);
BENCH_MB_MASTER_PROGRESS (0) prints the share so far every that many nights.
BENCH_MB_MASTER_MEMORY (1): the master remembers its own earlier views of the bake (so knows the
batches it passed on, as a person at the table does); 0 plays from the current view alone.

It prints the master's share of the wins (a shared win counts as a share) with its 95% Wilson
interval against the fair share, and the master's CPU a decision (p50, p95).
"""

import math
import os
import random
import statistics
import time
from multiprocessing import Pool

from games.engines import midnight_bakery as mb
from games.engines.midnight_bakery.bots import choose_greedy
from games.engines.midnight_bakery.master import MASTER_SECONDS, decide
from games.engines.midnight_bakery.sampling import remembered
from games.engines.midnight_bakery.shapes import View

TABLES = tuple(int(n) for n in os.environ.get("BENCH_MB_MASTER_TABLES", "4,2").split(","))
NIGHTS = int(os.environ.get("BENCH_MB_MASTER_NIGHTS", "20"))
SECONDS = float(os.environ.get("BENCH_MB_MASTER_SECONDS", str(MASTER_SECONDS)))
WORKERS = int(os.environ.get("BENCH_MB_MASTER_WORKERS", "1"))
FIRST_SEED = int(os.environ.get("BENCH_MB_MASTER_SEED", "7000000"))
MEMORY = os.environ.get("BENCH_MB_MASTER_MEMORY", "1") == "1"
PROGRESS = int(os.environ.get("BENCH_MB_MASTER_PROGRESS", "0"))  # print the share every n nights


def night(task: tuple[int, int, float]) -> tuple[float, list[float]]:
    """One night, the master in seat `night % bakers`: its share of the win and its CPU seconds
    for each decision it thought about."""
    bakers, number, seconds = task
    seat = number % bakers
    seed = FIRST_SEED + number
    rng = random.Random(seed)
    state = mb.new_game(bakers, seed=seed)
    thinking: list[float] = []
    seen: list[View] = []
    while not mb.is_over(state):
        for baker in mb.active_seats(state):
            shown, legal = mb.view(state, baker), mb.legal_actions(state, baker)
            if baker == seat:
                seen.append(shown)
                memory = remembered(seen) if MEMORY else None
                start = time.thread_time()
                action = decide(shown, legal, rng, seconds=seconds, memory=memory)
                if len(legal) > 1:
                    thinking.append(time.thread_time() - start)
            else:
                action = choose_greedy(shown, legal, rng)
            state = mb.apply_action(state, baker, action)
    winners = mb.result(state)["winners"]
    return (1 / len(winners) if seat in winners else 0.0), thinking


def wilson(share: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion seen over n trials."""
    if n == 0:
        return 0.0, 1.0
    centre = share + z * z / (2 * n)
    spread = z * math.sqrt(share * (1 - share) / n + z * z / (4 * n * n))
    scale = 1 + z * z / n
    return (centre - spread) / scale, (centre + spread) / scale


def percentile(values: list[float], fraction: float) -> float:
    """The value below which this fraction of the sorted values lie (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(fraction * len(ordered)) - 1))]


def main() -> None:
    """Print the master's win share and CPU a decision at each table size."""
    for bakers in TABLES:
        tasks = [(bakers, number, SECONDS) for number in range(NIGHTS)]
        start = time.perf_counter()
        nights: list[tuple[float, list[float]]] = []
        with Pool(WORKERS) as pool:
            for played in pool.imap(night, tasks, chunksize=1):
                nights.append(played)
                if PROGRESS and len(nights) % PROGRESS == 0:
                    won = sum(share for share, _ in nights)
                    print(f"  {len(nights)} nights: {won / len(nights):.1%}", flush=True)
        took = time.perf_counter() - start
        share = sum(won for won, _ in nights) / NIGHTS
        low, high = wilson(share, NIGHTS)
        thinking = [seconds for _, times in nights for seconds in times]
        owl = " (with the owl)" if bakers == 2 else ""
        print(
            f"master vs {bakers - 1} greedy, {bakers} bakers{owl}: wins {share:.1%} "
            f"(95% CI {low:.1%}-{high:.1%}) of {NIGHTS} seat-rotated nights; fair share "
            f"{1 / bakers:.1%}; budget {SECONDS * 1000:.0f} ms, "
            f"{'remembering its bake' if MEMORY else 'from the view alone'} ({took:.0f} s)"
        )
        if thinking:
            print(
                f"master CPU a decision at {bakers} bakers: p50 "
                f"{statistics.median(thinking) * 1000:.0f} ms, p95 "
                f"{percentile(thinking, 0.95) * 1000:.0f} ms ({len(thinking)} decisions)"
            )


if __name__ == "__main__":
    main()
