"""Greedy against random in Midnight Bakery: one greedy seat, the rest random, many nights.

Run with `.venv/bin/python -m bench._mb_bots` (the leading underscore keeps it out of `make bench`).
"""

import random
import sys
import time

from games.engines import midnight_bakery as mb
from games.engines.midnight_bakery.bots import BOTS

TABLES = (2, 4, 6)


def play(bakers: int, seed: int, levels: list[str]) -> list[int]:
    """One night with a bot level per seat; the winners."""
    rng = random.Random(seed)
    state = mb.new_game(bakers, seed=seed)
    while not mb.is_over(state):
        for seat in mb.active_seats(state):
            legal = mb.legal_actions(state, seat)
            action = BOTS[levels[seat]](mb.view(state, seat), legal, rng)
            state = mb.apply_action(state, seat, action)
    winners: list[int] = mb.result(state)["winners"]
    return winners


def greedy_share(bakers: int, nights: int) -> tuple[float, float]:
    """Greedy's wins (a shared win counts as a share) over nights, greedy in a rotating seat."""
    wins = 0.0
    outright = 0
    for night in range(nights):
        seat = night % bakers
        levels = ["random"] * bakers
        levels[seat] = "greedy"
        winners = play(bakers, 1_000_000 + night, levels)
        if seat in winners:
            wins += 1 / len(winners)
            outright += len(winners) == 1
    return wins / nights, outright / nights


def main() -> None:
    """Print greedy's win rate against the fair share 1/n at each table size."""
    nights = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    for bakers in TABLES:
        start = time.perf_counter()
        share, outright = greedy_share(bakers, nights)
        took = time.perf_counter() - start
        print(
            f"{bakers} bakers: greedy wins {share:.1%} (outright {outright:.1%}) of {nights} "
            f"nights against random; fair share {1 / bakers:.1%} ({took:.1f}s)"
        )


if __name__ == "__main__":
    main()
