"""Cakehalla's master against lookahead: its win share, seat-rotated, and its CPU a decision.

At 2 bakers the master plays one seat against `lookahead`; at 4, against three. Each deal is played
once with the master in every seat (seat rotation), so no seat's advantage favours it. A shared
win counts as a share. The share is printed with its 95% confidence interval (Wilson's), beside
the even share a seat would get, and the CPU time (time.thread_time) of each side's decisions.

Sizes: BENCH_CH_MASTER_GAMES (20) games at each of BENCH_CH_MASTER_SIZES ("2,4") bakers (rounded
up to whole rotations), the master's budget BENCH_CH_MASTER_SECONDS (MASTER_SECONDS, 0.25 s of
CPU), over BENCH_CH_MASTER_WORKERS (1) processes, deals from BENCH_CH_MASTER_FIRST (0) on.
BENCH_CH_MASTER_LOG (unset) names a file that gets one JSON line a game as the games finish, in
deal order (its players, deal, master's seat, win share and each side's CPU a decision), so a run
stopped early still counts its whole rotations: BENCH_CH_MASTER_COUNT=FILE[,FILE...] prints the
figures of the whole rotations in those logs, at each size, instead of playing.
Issue 48's figures: 1,000 games at each size. The budget a decision is CPU time, so workers
sharing a busy machine slow the run down but never weaken the master.
"""

from __future__ import annotations

import json
import math
import os
import random
import statistics
import time
from collections.abc import Iterable
from multiprocessing import Pool

from games.engines import cakehalla as ch
from games.engines.cakehalla.bots import BOTS
from games.engines.cakehalla.master import MASTER_SECONDS, with_budget

GAMES = int(os.environ.get("BENCH_CH_MASTER_GAMES", "20"))
SIZES = [int(n) for n in os.environ.get("BENCH_CH_MASTER_SIZES", "2,4").split(",")]
SECONDS = float(os.environ.get("BENCH_CH_MASTER_SECONDS", str(MASTER_SECONDS)))
WORKERS = int(os.environ.get("BENCH_CH_MASTER_WORKERS", "1"))
FIRST = int(os.environ.get("BENCH_CH_MASTER_FIRST", "0"))
LOG = os.environ.get("BENCH_CH_MASTER_LOG", "")
COUNT = [f for f in os.environ.get("BENCH_CH_MASTER_COUNT", "").split(",") if f]
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


def logged(jobs: list[tuple[int, int, int]], games: Iterable[Played]) -> list[Played]:
    """The games as they finish, each written to LOG (if set) as one JSON line."""
    played = []
    for (players, deal, seat), game in zip(jobs, games, strict=False):
        played.append(game)
        if LOG:
            line = {"players": players, "deal": deal, "seat": seat, "share": game[0]}
            with open(LOG, "a", encoding="utf-8") as log:
                log.write(json.dumps(line | {"mine": game[1], "theirs": game[2]}) + "\n")
    return played


def wilson(share: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% confidence interval of a win share over n games (Wilson's score interval)."""
    centre = (share + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(share * (1 - share) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


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
            played = logged(jobs, pool.imap(play, jobs, chunksize=1))
    else:
        played = logged(jobs, map(play, jobs))
    deals_played = f"deals {FIRST}-{FIRST + deals - 1}"
    report(
        players,
        played,
        deals_played,
        f"{time.perf_counter() - started:.0f} s wall on {WORKERS} process(es)",
    )


def report(players: int, played: list[Played], deals: str, how: str) -> None:
    """One line of figures: the master's share with its interval, each side's CPU a decision."""
    games = len(played)
    share = sum(p[0] for p in played) / games
    low, high = wilson(share, games)
    mine = [t for p in played for t in p[1]]
    theirs = [t for p in played for t in p[2]]
    print(
        f"cakehalla master vs {players - 1} {RIVAL}, {players} bakers, {games} games "
        f"(seat-rotated, {deals}, {SECONDS * 1000:g} ms CPU a "
        f"decision): master wins {share:.1%} (95% CI {low:.1%}-{high:.1%}; an even share "
        f"{1 / players:.0%}); master CPU a decision p50 {statistics.median(mine) * 1000:.1f} ms, "
        f"p95 {quantile(mine, 0.95) * 1000:.1f} ms; {RIVAL} p50 "
        f"{statistics.median(theirs) * 1000:.1f} ms, p95 {quantile(theirs, 0.95) * 1000:.1f} ms; "
        f"{how}",
        flush=True,
    )


def count_logs(files: list[str]) -> None:
    """The figures of the whole rotations the logs hold, at each size (a deal counts only once
    the master has played it from every seat). The budget printed is BENCH_CH_MASTER_SECONDS:
    set it to the runs' own."""
    games: dict[tuple[int, int], dict[int, Played]] = {}
    for name in files:
        with open(name, encoding="utf-8") as log:
            for line in log:
                g = json.loads(line)
                games.setdefault((g["players"], g["deal"]), {})[g["seat"]] = (
                    g["share"],
                    g["mine"],
                    g["theirs"],
                )
    for players in sorted({p for p, _ in games}):
        whole = sorted(d for (p, d), seats in games.items() if p == players and len(seats) == p)
        played = [games[players, d][s] for d in whole for s in range(players)]
        if played:
            report(
                players,
                played,
                f"{len(whole)} deals of {whole[0]}-{whole[-1]}",
                f"counted from {len(files)} log(s)",
            )


def main() -> None:
    """The master's win share against lookahead at each size asked (or counted from logs)."""
    if COUNT:
        count_logs(COUNT)
        return
    for players in SIZES:
        match(players)


if __name__ == "__main__":
    main()
