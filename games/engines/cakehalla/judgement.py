"""The master's judgement of a standing: each baker's chance of winning from here.

A conditional logit over the bakers: each baker's strength is a weighted sum of a few plain
features of their bakery (`features`), and their chance is their share of exp(strength). The
weights were fitted to who won played-out games of greedy bakers (bench/_cakehalla_judgement.py
refits them and says how); they are numbers, not rules, and the features are what a player
counts: points, discounts, ingredients, how near the counter's and the reserved cards are, how
near the customers, and who still moves this round.
"""

from __future__ import annotations

import math

from games.engines.cakehalla.cards import CARDS, CUSTOMERS
from games.engines.cakehalla.legal import COST_NZ
from games.engines.cakehalla.state import EMPTY, WINNING_POINTS, Baker, State

FEATURES: tuple[str, ...] = (
    "points",
    "discounts",
    "ingredients",
    "saffron",
    "customers_near",
    "reserved_worth",
    "counter_worth",
    "buyable_points",
    "reserved",
    "points_squared",
    "moves_this_round",
    "points_late",
    "discounts_late",
    "reached",
)

# Fitted by bench/_cakehalla_judgement.py (see its docstring); one row per table size.
WEIGHTS: dict[int, tuple[float, ...]] = {
    2: (
        0.1886,
        0.7836,
        0.0954,
        0.0825,
        1.5200,
        0.1864,
        0.1704,
        0.0742,
        -0.1563,
        0.1961,
        0.5001,
        -0.0169,
        -0.8746,
        1.6581,
    ),
    3: (
        0.2094,
        0.9885,
        0.1398,
        0.1187,
        1.5074,
        0.1580,
        0.1390,
        0.0846,
        -0.0450,
        0.2604,
        0.6435,
        -0.0615,
        -1.0736,
        1.4711,
    ),
    4: (
        0.2819,
        1.2762,
        0.1650,
        0.1775,
        1.0008,
        0.1715,
        0.1764,
        0.0465,
        0.0065,
        0.3115,
        0.7046,
        -0.1831,
        -1.3683,
        1.6203,
    ),
}


def _short(card: int, baker: Baker) -> int:
    """How many ingredients the baker lacks for the card after Saffron (0: buyable now)."""
    tokens = baker.tokens
    discounts = baker.discounts
    short = 0
    for i, n in COST_NZ[card]:
        n -= tokens[i] + discounts[i]
        if n > 0:
            short += n
    short -= tokens[5]
    return short if short > 0 else 0


def features(state: State, seat: int) -> tuple[float, ...]:
    """One baker's features, in FEATURES' order."""
    b = state.bakers[seat]
    discounts = b.discounts
    near = 0.0
    for c in state.customers:
        wants = CUSTOMERS[c].wants
        gap = sum(w - d for w, d in zip(wants, discounts, strict=True) if w > d)
        near += (1 - gap / sum(wants)) ** 2
    reserved_worth = 0.0
    buyable = 0
    for c, _ in b.reserved:
        short = _short(c, b)
        reserved_worth += (CARDS[c].points + 0.5) / (1 + short)
        if not short and CARDS[c].points > buyable:
            buyable = CARDS[c].points
    counter_worth = 0.0
    for row in state.counter:
        for c in row:
            if c != EMPTY:
                short = _short(c, b)
                worth = (CARDS[c].points + 0.5) / (1 + short)
                if worth > counter_worth:
                    counter_worth = worth
                if not short and CARDS[c].points > buyable:
                    buyable = CARDS[c].points
    top = max(x.points for x in state.bakers)
    late = min(1.0, top / WINNING_POINTS)
    to_move = 1.0 if not state.over and seat >= state.turn else 0.0
    total_discounts = float(sum(discounts))
    return (
        float(b.points),
        total_discounts,
        float(sum(b.tokens[:5])),
        float(b.tokens[5]),
        near,
        reserved_worth,
        counter_worth,
        float(buyable),
        float(len(b.reserved)),
        b.points * b.points / WINNING_POINTS,
        to_move,
        b.points * late,
        total_discounts * late,
        1.0 if b.points >= WINNING_POINTS else 0.0,
    )


def strength(state: State, seat: int) -> float:
    """A baker's strength: the weighted sum of its features."""
    weights = WEIGHTS[state.players]
    return sum(w * f for w, f in zip(weights, features(state, seat), strict=True))


def win_chance(state: State, seat: int) -> float:
    """The seat's chance of winning from this standing, 0..1 (the bakers' shares sum to 1)."""
    strengths = [strength(state, s) for s in range(state.players)]
    top = max(strengths)
    shares = [math.exp(x - top) for x in strengths]
    return shares[seat] / sum(shares)
