"""The Cakehalla master: every legal action weighed on many tables sampled from one seat's view.

A determinized flat Monte Carlo search with successive halving at the root. Each pass samples one
whole table the seat could be at (the piles' order and rivals' blind reservations dealt at random
from what it has not seen, `sample_state`), then plays every action still in the running on that
same table with the same rollout seed, so the actions are compared on equal luck (common random
numbers). A rollout plays `greedy` for every seat some rounds on and scores the seat's standing
against its best rival (`evaluate`, the one `lookahead` uses); a game that ends in the rollout
counts as won or lost. After each doubling of passes the worse half of the actions drops out, so
the time goes to the actions worth telling apart. The thinking budget is CPU time of the calling
thread (time.thread_time), so a busy machine makes it slower, never weaker.
"""

from __future__ import annotations

import functools
import random
import time
from dataclasses import dataclass

from games.engines.cakehalla.actions import apply_action
from games.engines.cakehalla.greedy import (
    WIN_VALUE,
    Choose,
    evaluate,
    own_seat,
    ranked,
    rollout,
    sample_state,
)
from games.engines.cakehalla.shapes import Action, View
from games.engines.cakehalla.state import State
from games.engines.cakehalla.turn import winners

MASTER_SECONDS = 0.25
ROLLOUT_ROUNDS = 2
ROLLOUT_EXTRA = 0
FEWEST_KEPT = 3
KEPT_BY_GREEDY = 8
KEPT_BY_FIRST_TABLE = 4
FIRST_HALVING = 4


@dataclass(frozen=True)
class Weighed:
    """One legal action and what the search expects of it from the seat's view."""

    action: Action
    expected: float  # the seat's expected final points if the action is taken
    win: float  # the estimated chance of winning (a shared win counts as a share), 0..1
    visits: int  # on how many sampled tables it was played out


class _Arm:
    """The running totals of one action over the sampled tables."""

    __slots__ = ("action", "points", "prior", "score", "visits", "wins")

    def __init__(self, action: Action, prior: int) -> None:
        self.action = action
        self.prior = prior
        self.score = 0.0
        self.points = 0.0
        self.wins = 0.0
        self.visits = 0

    def mean(self) -> float:
        """The mean score, the greedy rank breaking ties (and ordering the unplayed)."""
        return self.score / self.visits if self.visits else -1e18

    def key(self) -> tuple[float, int]:
        """How good the action looks: mean score first, then greedy's rank."""
        return (self.mean(), -self.prior)


def _final_points(state: State, seat: int) -> float:
    """The seat's points at the end of a rollout (the game's final points if it ended)."""
    return float(state.bakers[seat].points)


def _win_share(state: State, seat: int) -> float:
    """The seat's share of the win if the rollout ended the game, else its standing's guess."""
    if state.over:
        won = winners(state)
        return 1.0 / len(won) if seat in won else 0.0
    return 0.5 + max(-0.5, min(0.5, evaluate(state, seat) / 20.0))


def _outcome(state: State, seat: int) -> float:
    """The score of a rollout's end: a finished game by its result alone (a win sooner is no
    worse for the ingredients it did not gather), else the seat's standing (`evaluate`)."""
    if not state.over:
        return evaluate(state, seat)
    points = [b.points for b in state.bakers]
    mine = points[seat]
    rival = max(p for s, p in enumerate(points) if s != seat)
    return WIN_VALUE * (2.0 * _win_share(state, seat) - 1.0) + mine - rival


def _play_out(state: State, seat: int, arm: _Arm, turns: int, seed: int) -> None:
    """Play the arm's action on a sampled table, roll out, and add what came of it."""
    after = rollout(apply_action(state, seat, arm.action), turns, random.Random(seed))
    arm.score += _outcome(after, seat)
    arm.points += _final_points(after, seat)
    arm.wins += _win_share(after, seat)
    arm.visits += 1


def _first_cut(arms: list[_Arm]) -> list[_Arm]:
    """After one table: greedy's favourites, and the few that did best on it, stay in."""
    by_table = sorted(arms, key=_Arm.key, reverse=True)[:KEPT_BY_FIRST_TABLE]
    return [a for a in arms if a.prior < KEPT_BY_GREEDY or a in by_table]


def _search(
    view: View,
    legal: list[Action],
    rng: random.Random,
    seconds: float,
    iterations: int | None,
) -> list[_Arm]:
    """Successive halving over the legal actions on shared sampled tables, until the budget."""
    seat = own_seat(view)
    start = time.thread_time()
    first = sample_state(view, rng)
    order = ranked(first, seat, legal, rng)
    arms = [_Arm(a, i) for i, a in enumerate(order)]
    alive = list(arms)
    turns = ROLLOUT_ROUNDS * view["players"] + ROLLOUT_EXTRA
    passes = 0
    next_cut = FIRST_HALVING
    while True:
        state = first if passes == 0 else sample_state(view, rng)
        seed = rng.getrandbits(32)
        for arm in alive:
            _play_out(state, seat, arm, turns, seed)
        passes += 1
        if iterations is not None:
            if passes >= iterations:
                break
        elif time.thread_time() - start >= seconds:
            break
        if passes == 1:
            alive = _first_cut(alive)
        elif passes == next_cut and len(alive) > FEWEST_KEPT:
            alive.sort(key=_Arm.key, reverse=True)
            alive = alive[: max(FEWEST_KEPT, (len(alive) + 1) // 2)]
            next_cut *= 2
    return sorted(arms, key=_weight_key, reverse=True)


def _weight_key(arm: _Arm) -> tuple[int, float, int]:
    """Best first: the actions that stayed in the running longest, then by mean score."""
    return (arm.visits, arm.mean(), -arm.prior)


def weigh(
    view: View,
    legal: list[Action],
    rng: random.Random,
    *,
    seconds: float = MASTER_SECONDS,
    iterations: int | None = None,
) -> list[Weighed]:
    """Every legal action, best first, from this seat's view only, thinking about `seconds` of
    CPU (or exactly `iterations` passes over the sampled tables, for reproducible reviews)."""
    if not legal:
        return []
    arms = _search(view, legal, rng, seconds, iterations)
    return [
        Weighed(
            arm.action,
            arm.points / arm.visits if arm.visits else 0.0,
            arm.wins / arm.visits if arm.visits else 0.0,
            arm.visits,
        )
        for arm in arms
    ]


def decide(view: View, legal: list[Action], rng: random.Random, *, seconds: float) -> Action:
    """The master's pick thinking about `seconds` of CPU (at once when only one action is legal)."""
    if len(legal) == 1:
        return legal[0]
    return weigh(view, legal, rng, seconds=seconds)[0].action


def with_budget(seconds: float) -> Choose:
    """A master's choose function thinking about that many seconds of CPU a decision; a partial
    of a module-level function, so it pickles to a thinking process (games/thinking.py)."""
    return functools.partial(decide, seconds=seconds)


def choose_master(view: View, legal: list[Action], rng: random.Random) -> Action:
    """The master's pick with the default budget MASTER_SECONDS."""
    return _DEFAULT(view, legal, rng)


_DEFAULT: Choose = with_budget(MASTER_SECONDS)
