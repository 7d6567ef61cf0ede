"""Cakehalla's master against lookahead: its win share, seat-rotated, and its CPU a decision.

At 2 bakers the master plays one seat against `lookahead`; at 4, against three. Each deal is played
once with the master in every seat (seat rotation), so no seat's advantage favours it. A shared
win counts as a share. The share is printed with its 95% confidence interval (Wilson's), beside
the even share a seat would get, and the CPU time (time.thread_time) of each side's decisions.

Sizes: BENCH_CH_MASTER_GAMES (20) games at each of BENCH_CH_MASTER_SIZES ("2,4") bakers (rounded
up to whole rotations), the master's budget BENCH_CH_MASTER_SECONDS (MASTER_SECONDS, 0.25 s of
CPU), over BENCH_CH_MASTER_WORKERS (1) processes, deals from BENCH_CH_MASTER_FIRST (0) on.
Issue 48's figures: 1,000 games at each size. The budget a decision is CPU time, so workers
sharing a busy machine slow the run down but never weaken the master.
"""

from __future__ import annotations

import math
import os
import random
import statistics
import time
from multiprocessing import Pool

from games.engines import cakehalla as ch
from games.engines.cakehalla.bots import BOTS
from games.engines.cakehalla.master import MASTER_SECONDS, with_budget

GAMES = int(os.environ.get("BENCH_CH_MASTER_GAMES", "20"))
SIZES = [int(n) for n in os.environ.get("BENCH_CH_MASTER_SIZES", "2,4").split(",")]
SECONDS = float(os.environ.get("BENCH_CH_MASTER_SECONDS", str(MASTER_SECONDS)))
WORKERS = int(os.environ.get("BENCH_CH_MASTER_WORKERS", "1"))
FIRST = int(os.environ.get("BENCH_CH_MASTER_FIRST", "0"))
RIVAL = "lookahead"

Played = tuple[float, list[float], list[float]]  # the master's win share, its and rivals' CPU


def play(job: tuple[int, int, int]) -> Played:
    """One game: the deal, the master's seat; its share of the win and each decision's CPU."""
    players, deal, seat_of_master = job
    master = with_budget(SECONDS)
    rival = BOTS[RIVAL]
    rnd = random.Random(deal * players + seat_of_master)
    state = ch.new_game(players, seed=deal)
    mine: list[float] = []
    theirs: list[float] = []
    while not ch.is_over(state):
        seat = ch.active_seats(state)[0]
        legal = ch.legal_actions(state, seat)
        seen = ch.view(state, seat)
        start = time.thread_time()
        if seat == seat_of_master:
            action = master(seen, legal, rnd)
            mine.append(time.thread_time() - start)
        else:
            action = rival(seen, legal, rnd)
            theirs.append(time.thread_time() - start)
        state = ch.apply_action(state, seat, action)
    won = ch.result(state)["winners"]
    return (1 / len(won) if seat_of_master in won else 0.0), mine, theirs


def wilson(share: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% confidence interval of a win share over n games (Wilson's score interval)."""
    centre = (share + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(share * (1 - share) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def quantile(values: list[float], q: float) -> float:
    """A quantile of the values (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def match(players: int) -> None:
    """The master in every seat of enough deals for GAMES games; one line of figures."""
    deals = -(-GAMES // players)
    jobs = [(players, FIRST + d, s) for d in range(deals) for s in range(players)]
    started = time.perf_counter()
    if WORKERS > 1:
        with Pool(WORKERS) as pool:
            played = pool.map(play, jobs, chunksize=1)
    else:
        played = [play(job) for job in jobs]
    games = len(played)
    share = sum(p[0] for p in played) / games
    low, high = wilson(share, games)
    mine = [t for p in played for t in p[1]]
    theirs = [t for p in played for t in p[2]]
    print(
        f"cakehalla master vs {players - 1} {RIVAL}, {players} bakers, {games} games "
        f"(seat-rotated, deals {FIRST}-{FIRST + deals - 1}, {SECONDS * 1000:g} ms CPU a "
        f"decision): master wins {share:.1%} (95% CI {low:.1%}-{high:.1%}; an even share "
        f"{1 / players:.0%}); master CPU a decision p50 {statistics.median(mine) * 1000:.1f} ms, "
        f"p95 {quantile(mine, 0.95) * 1000:.1f} ms; {RIVAL} p50 "
        f"{statistics.median(theirs) * 1000:.1f} ms, p95 {quantile(theirs, 0.95) * 1000:.1f} ms; "
        f"{time.perf_counter() - started:.0f} s wall on {WORKERS} process(es)",
        flush=True,
    )


def main() -> None:
    """The master's win share against lookahead at each size asked."""
    for players in SIZES:
        match(players)


if __name__ == "__main__":
    main()
