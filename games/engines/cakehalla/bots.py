"""Cakehalla bots: random, greedy, lookahead and the master, each deciding from its own seat's
view only (their judgement and rollouts are greedy.py; the master's search is master.py)."""

from __future__ import annotations

import random

from games.engines.cakehalla.actions import apply_action
from games.engines.cakehalla.greedy import (
    Choose,
    evaluate,
    greedy_action,
    own_seat,
    ranked,
    rollout,
    sample_state,
)
from games.engines.cakehalla.master import choose_master
from games.engines.cakehalla.shapes import Action, View

LOOKAHEAD_CANDIDATES = 6
LOOKAHEAD_SAMPLES = 8
LOOKAHEAD_ROUNDS = 2


def _matching(action: Action, legal: list[Action]) -> Action:
    """The entry of the caller's legal list equal to the chosen action."""
    for a in legal:
        if a == action:
            return a
    return legal[0]


def choose_random(view: View, legal: list[Action], rnd: random.Random) -> Action:
    """Any legal action, uniformly."""
    return rnd.choice(legal)


def choose_greedy(view: View, legal: list[Action], rnd: random.Random) -> Action:
    """Build discounts toward customers, buy the best points per ingredient, reserve to deny."""
    if len(legal) == 1:
        return legal[0]
    seat = own_seat(view)
    state = sample_state(view, rnd)
    return _matching(greedy_action(state, seat, legal, rnd), legal)


def choose_lookahead(view: View, legal: list[Action], rnd: random.Random) -> Action:
    """Try the best greedy candidates on sampled tables, two rounds deep, and keep the best."""
    if len(legal) == 1:
        return legal[0]
    seat = own_seat(view)
    state = sample_state(view, rnd)
    candidates = ranked(state, seat, legal, rnd)[:LOOKAHEAD_CANDIDATES]
    totals = [0.0] * len(candidates)
    turns = LOOKAHEAD_ROUNDS * view["players"]
    for k in range(LOOKAHEAD_SAMPLES):
        if k:
            state = sample_state(view, rnd)
        seed = rnd.getrandbits(32)
        for j, action in enumerate(candidates):
            after = rollout(apply_action(state, seat, action), turns, random.Random(seed))
            totals[j] += evaluate(after, seat)
    best = max(range(len(candidates)), key=lambda j: totals[j])
    return _matching(candidates[best], legal)


BOTS: dict[str, Choose] = {
    "random": choose_random,
    "greedy": choose_greedy,
    "lookahead": choose_lookahead,
    "master": choose_master,
}


def choose(view: View, legal: list[Action], rng: random.Random) -> Action:
    """The contract's bot entry point: lookahead, the strongest level that answers at once (the
    master thinks for its budget of CPU, so the site offers it by name)."""
    return choose_lookahead(view, legal, rng)
