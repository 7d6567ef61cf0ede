"""Refit the Cakehalla master's judgement (games/engines/cakehalla/judgement.py's WEIGHTS).

Run by hand, never by `make bench`: it plays BENCH_CH_JUDGE_GAMES (20,000) seeded games a table
size of greedy bakers who now and then (one decision in BENCH_CH_JUDGE_NOISE, 8) pick at random
among greedy's four favourites, so the positions vary; takes every standing at the end of a turn
with each baker's `judgement.features` and who won in the end; and fits the conditional logit
(each baker's chance is its share of exp(weights . features)) by Newton's method with a small
ridge, printing the weights to paste into WEIGHTS and the fit's log loss on held-out games (every
fifth deal) beside the loss of guessing evenly. It needs numpy, which the site does not:
`pip install --target /tmp/npx numpy` and run with PYTHONPATH including /tmp/npx.
"""

from __future__ import annotations

import os
import random
import sys
from multiprocessing import Pool

from games.engines import cakehalla as ch
from games.engines.cakehalla.greedy import greedy_action, ranked
from games.engines.cakehalla.judgement import FEATURES, features
from games.engines.cakehalla.legal import legal_actions
from games.engines.cakehalla.turn import winners

GAMES = int(os.environ.get("BENCH_CH_JUDGE_GAMES", "20000"))
NOISE = int(os.environ.get("BENCH_CH_JUDGE_NOISE", "8"))
SIZES = [int(n) for n in os.environ.get("BENCH_CH_JUDGE_SIZES", "2,3,4").split(",")]
WORKERS = int(os.environ.get("BENCH_CH_JUDGE_WORKERS", "2"))
RIDGE = 1.0

Sample = tuple[list[tuple[float, ...]], list[float]]  # every baker's features, each's win share


def play(job: tuple[int, int]) -> list[Sample]:
    """One noisy greedy game; every standing at a turn's end with the final win shares."""
    players, deal = job
    rnd = random.Random(deal * 7 + players)
    state = ch.new_game(players, seed=deal)
    standings = []
    while not state.over:
        seat = state.turn
        legal = legal_actions(state, seat)
        if len(legal) > 1 and rnd.randrange(NOISE) == 0:
            action = rnd.choice(ranked(state, seat, legal, rnd)[:4])
        else:
            action = greedy_action(state, seat, legal, rnd)
        done = state.turns_done
        state = ch.apply_action(state, seat, action)
        if state.turns_done > done:
            standings.append([features(state, s) for s in range(players)])
    won = winners(state)
    shares = [1 / len(won) if s in won else 0.0 for s in range(players)]
    return [(standing, shares) for standing in standings]


def fit(samples: list[Sample]):
    """Newton's method on the conditional logit's log likelihood, with a ridge."""
    import numpy as np

    x = np.array([s[0] for s in samples])  # (n, bakers, features)
    y = np.array([s[1] for s in samples])  # (n, bakers)
    scale = x.reshape(-1, x.shape[2]).std(axis=0) + 1e-9
    xs = x / scale
    w = np.zeros(x.shape[2])
    for _ in range(25):
        u = xs @ w
        u -= u.max(axis=1, keepdims=True)
        p = np.exp(u)
        p /= p.sum(axis=1, keepdims=True)
        mean = np.einsum("nb,nbf->nf", p, xs)
        grad = np.einsum("nb,nbf->f", y - p, xs) - RIDGE * w
        centred = xs - mean[:, None, :]
        hess = np.einsum("nb,nbf,nbg->fg", p, centred, centred) + RIDGE * np.eye(len(w))
        step = np.linalg.solve(hess, grad)
        w += step
        if np.abs(step).max() < 1e-7:
            break
    return w / scale


def log_loss(samples: list[Sample], w) -> float:
    """The mean log loss of the fitted chances against who won."""
    import numpy as np

    x = np.array([s[0] for s in samples])
    y = np.array([s[1] for s in samples])
    u = x @ w
    u -= u.max(axis=1, keepdims=True)
    logp = u - np.log(np.exp(u).sum(axis=1, keepdims=True))
    return float(-(y * logp).sum(axis=1).mean())


def main() -> None:
    """Fit each size's weights and print them."""
    for players in SIZES:
        jobs = [(players, deal) for deal in range(GAMES)]
        with Pool(WORKERS) as pool:
            games = pool.map(play, jobs, chunksize=50)
        train = [s for d, g in enumerate(games) if d % 5 for s in g]
        held = [s for d, g in enumerate(games) if not d % 5 for s in g]
        w = fit(train)
        import math

        print(
            f"{players} bakers: {len(train)} standings fitted, {len(held)} held out; held-out "
            f"log loss {log_loss(held, w):.4f} (even guess {math.log(players):.4f})",
            file=sys.stderr,
        )
        print(f"    {players}: (" + ", ".join(f"{v:.4f}" for v in w) + "),")
        for name, v in zip(FEATURES, w, strict=True):
            print(f"        # {name}: {v:.4f}", file=sys.stderr)


if __name__ == "__main__":
    main()
