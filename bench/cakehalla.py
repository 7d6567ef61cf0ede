"""Cakehalla: random games through the public functions, and each bot level's time per decision.

Sizes: BENCH_CAKEHALLA_RUNS (5) runs of BENCH_CAKEHALLA_GAMES (40) games; each bot level's
decisions at most BENCH_CAKEHALLA_DECISIONS (0: random 2000, greedy 400, lookahead 20).
"""

import os
import random
import statistics
import time

from games.engines import cakehalla as ch
from games.engines.cakehalla.bots import BOTS

RUNS = int(os.environ.get("BENCH_CAKEHALLA_RUNS", "5"))
GAMES_PER_RUN = int(os.environ.get("BENCH_CAKEHALLA_GAMES", "40"))
CAP = int(os.environ.get("BENCH_CAKEHALLA_DECISIONS", "0"))
BOT_DECISIONS = {
    level: min(count, CAP) if CAP > 0 else count
    for level, count in {"random": 2000, "greedy": 400, "lookahead": 20}.items()
}


def random_games(players: int, games: int, first_seed: int) -> tuple[int, float, float]:
    """Decisions made, wall seconds and CPU seconds playing random games through the contract."""
    decisions = 0
    start = time.perf_counter()
    cpu = time.process_time()
    for seed in range(first_seed, first_seed + games):
        rnd = random.Random(seed)
        state = ch.new_game(players, seed=seed)
        while not ch.is_over(state):
            seat = ch.active_seats(state)[0]
            state = ch.apply_action(state, seat, rnd.choice(ch.legal_actions(state, seat)))
            decisions += 1
    return decisions, time.perf_counter() - start, time.process_time() - cpu


def engine_rates(players: int) -> tuple[float, float, float]:
    """Median decisions per second, games per second (wall clock) and decisions per CPU second."""
    runs = [random_games(players, GAMES_PER_RUN, run * GAMES_PER_RUN) for run in range(RUNS)]
    return (
        statistics.median(d / s for d, s, _ in runs),
        statistics.median(GAMES_PER_RUN / s for _, s, _ in runs),
        statistics.median(d / c for d, _, c in runs),
    )


def bot_decision_time(level: str, players: int, decisions: int) -> float:
    """Median seconds one bot level takes per decision, all seats played by that level."""
    choose = BOTS[level]
    rnd = random.Random(players)
    times: list[float] = []
    seed = 0
    while len(times) < decisions:
        state = ch.new_game(players, seed=seed)
        seed += 1
        while not ch.is_over(state) and len(times) < decisions:
            seat = ch.active_seats(state)[0]
            legal = ch.legal_actions(state, seat)
            seen = ch.view(state, seat)
            start = time.perf_counter()
            action = choose(seen, legal, rnd)
            times.append(time.perf_counter() - start)
            state = ch.apply_action(state, seat, action)
    return statistics.median(times)


def main() -> None:
    """Print decisions/s and games/s at 2 and 4 bakers, and bot time per decision."""
    for players in (2, 4):
        decisions, games, per_cpu = engine_rates(players)
        print(
            f"cakehalla random play, {players} bakers: {decisions:,.0f} decisions/s, "
            f"{games:,.1f} games/s, {per_cpu:,.0f} decisions per CPU second "
            f"(median of {RUNS} runs of {GAMES_PER_RUN} games)"
        )
    for level, count in BOT_DECISIONS.items():
        for players in (2, 4):
            seconds = bot_decision_time(level, players, count)
            print(
                f"cakehalla bot {level}, {players} bakers: {seconds * 1000:.3f} ms per decision "
                f"(median of {count} decisions)"
            )


if __name__ == "__main__":
    main()
