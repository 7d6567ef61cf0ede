"""Midnight Bakery speed: random nights through the public functions, and the greedy bot.

Sizes: BENCH_MIDNIGHT_RUNS (5) runs of BENCH_MIDNIGHT_NIGHTS (60) random nights at 2, 5 and 8
bakers; the greedy bot plays min(20, BENCH_MIDNIGHT_NIGHTS) nights at each.
"""

import os
import random
import statistics
import time

from games.engines import midnight_bakery as mb
from games.engines.midnight_bakery.bots import BOTS

TABLES = (2, 5, 8)
RUNS = int(os.environ.get("BENCH_MIDNIGHT_RUNS", "5"))
NIGHTS = int(os.environ.get("BENCH_MIDNIGHT_NIGHTS", "60"))


def random_nights(bakers: int, nights: int, first_seed: int) -> tuple[int, float]:
    """Decisions and seconds for random nights: legal_actions and apply_action every step."""
    decisions = 0
    start = time.perf_counter()
    for night in range(nights):
        seed = first_seed + night
        rng = random.Random(seed)
        state = mb.new_game(bakers, seed=seed)
        while not mb.is_over(state):
            for seat in mb.active_seats(state):
                state = mb.apply_action(state, seat, rng.choice(mb.legal_actions(state, seat)))
                decisions += 1
    return decisions, time.perf_counter() - start


def greedy_decision_times(bakers: int, nights: int) -> list[float]:
    """Seconds the greedy bot takes per decision, from its view and legal actions."""
    times = []
    for seed in range(nights):
        rng = random.Random(seed)
        state = mb.new_game(bakers, seed=seed)
        while not mb.is_over(state):
            for seat in mb.active_seats(state):
                shown, legal = mb.view(state, seat), mb.legal_actions(state, seat)
                start = time.perf_counter()
                action = BOTS["greedy"](shown, legal, rng)
                times.append(time.perf_counter() - start)
                state = mb.apply_action(state, seat, action)
    return times


def main() -> None:
    """Print decisions/s and nights/s (median of several runs) and greedy's time per decision."""
    for bakers in TABLES:
        runs = [random_nights(bakers, NIGHTS, 1000 * run) for run in range(RUNS)]
        per_second = statistics.median(decisions / took for decisions, took in runs)
        nights = statistics.median(NIGHTS / took for _, took in runs)
        print(
            f"{bakers} bakers: {per_second:,.0f} decisions/s, {nights:,.0f} nights/s "
            f"(median of {RUNS} runs of {NIGHTS} random nights)"
        )
    for bakers in TABLES:
        times = greedy_decision_times(bakers, min(20, NIGHTS))
        print(
            f"greedy bot at {bakers} bakers: median {statistics.median(times) * 1e6:.0f} µs "
            f"per decision ({len(times)} decisions)"
        )


if __name__ == "__main__":
    main()
