"""Cakehalla bot levels against each other (slow: run by hand, `make bench` skips it).

`.venv/bin/python -m bench._cakehalla_bots [games] [players] [a-b ...]`,
e.g. `1000 2 greedy-lookahead`; it prints the running tally every 50 games,
so a stopped run still says how far it got.
"""

import random
import statistics
import sys
import time
from itertools import combinations

from games.engines import cakehalla as ch
from games.engines.cakehalla.bots import BOTS


def play(levels: list[str], seed: int) -> tuple[ch.Result, list[float], list[str]]:
    """One game with the given level in each seat; the result and each decision's seconds."""
    rnd = random.Random(seed)
    state = ch.new_game(len(levels), seed=seed)
    times: list[float] = []
    kinds: list[str] = []
    while not ch.is_over(state):
        seat = ch.active_seats(state)[0]
        legal = ch.legal_actions(state, seat)
        seen = ch.view(state, seat)
        start = time.perf_counter()
        action = BOTS[levels[seat]](seen, legal, rnd)
        times.append(time.perf_counter() - start)
        kinds.append(levels[seat])
        state = ch.apply_action(state, seat, action)
    return ch.result(state), times, kinds


def match(a: str, b: str, players: int, games: int) -> None:
    """Level a against level b, seats alternating; win shares (shared wins split) and times."""
    wins = {a: 0.0, b: 0.0}
    times: dict[str, list[float]] = {a: [], b: []}
    ends_on_passes = 0
    for seed in range(games):
        levels = [a if (s + seed) % 2 == 0 else b for s in range(players)]
        result, took, kinds = play(levels, seed)
        for seat in result["winners"]:
            wins[levels[seat]] += 1 / len(result["winners"])
        for level, t in zip(kinds, took, strict=True):
            times[level].append(t)
        ends_on_passes += max(result["scores"]) < 15
        if (seed + 1) % 50 == 0 or seed + 1 == games:
            report(a, b, players, seed + 1, wins, times, ends_on_passes)


def report(
    a: str,
    b: str,
    players: int,
    games: int,
    wins: dict[str, float],
    times: dict[str, list[float]],
    ends_on_passes: int,
) -> None:
    """One line of the running tally."""
    print(
        f"{players} bakers, {a} vs {b}, {games} games: "
        f"{a} wins {wins[a] / games:.1%} ({statistics.median(times[a]) * 1000:.2f} ms/decision), "
        f"{b} wins {wins[b] / games:.1%} ({statistics.median(times[b]) * 1000:.2f} ms/decision), "
        f"{ends_on_passes} ended below 15",
        flush=True,
    )


def main() -> None:
    """The pairs of levels asked (default every pair, 20 games, at 2 and 4 bakers)."""
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    sizes = [int(sys.argv[2])] if len(sys.argv) > 2 else [2, 4]
    pairs = [tuple(p.split("-")) for p in sys.argv[3:]] or list(combinations(BOTS, 2))
    for players in sizes:
        for a, b in pairs:
            match(a, b, players, games)


if __name__ == "__main__":
    main()
