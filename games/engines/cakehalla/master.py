"""The Cakehalla master: every legal action weighed on many tables sampled from one seat's view.

A determinized flat Monte Carlo search with successive halving at the root. Each pass samples one
whole table the seat could be at (the piles' order and rivals' blind reservations dealt at random
from what it has not seen, `sample_state`), then plays every action still in the running on that
same table with the same rollout seed, so the actions are compared on equal luck (common random
numbers). A rollout plays `greedy` for every seat until the seat's own turn ends some rounds on,
and scores the seat's chance of winning from the standing there (`judgement.win_chance`, fitted
to who won played-out games; lookahead's `evaluate` judged worse: against lookahead at 30 ms, 2
bakers, the same deals, 86.2% of 120 games with win_chance, 62.5% of 80 with evaluate); a game
that ends in the rollout counts as won or lost. Judged as its own turn ends, not after a rival's:
in trials against lookahead, stopping one rival's turn later lost most games. After the
first table greedy's favourites and the best few on it stay in; after each doubling of passes
from the first halving the worse half drops out, so the time goes to the actions worth telling
apart. The thinking budget is CPU time of the calling thread (time.thread_time), so a busy
machine makes it slower, never weaker.

How wide and deep it looks depends on the table's size (`Breadth`, BREADTH). At 2 bakers it
weighs greedy's eight favourites and, time allowing, every other action, three rounds deep. At 3
and 4 bakers a rollout holds three rivals' greedy turns a round, so one table tells little: there
it starts as `lookahead` does (greedy's six favourites, two rounds deep) and halves them only
after lookahead's eight tables, so with lookahead's time it weighs what lookahead weighs, judged
by the chance of winning, and every pass past that sharpens it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import partial

from games.engines.budget import Budget
from games.engines.cakehalla.actions import apply_action
from games.engines.cakehalla.greedy import (
    WIN_VALUE,
    Choose,
    own_seat,
    ranked,
    rollout,
    sample_state,
)
from games.engines.cakehalla.judgement import win_chance
from games.engines.cakehalla.shapes import Action, View
from games.engines.cakehalla.state import State
from games.engines.cakehalla.turn import winners
from games.engines.weighed import Tally, Weighed

MASTER_SECONDS = 0.25
GAME_ROUNDS = 1000  # more rounds than any game lasts: roll out to the end
FEWEST_KEPT = 3


@dataclass(frozen=True)
class Breadth:
    """How the search spreads its time at one size of table.

    rounds: how many rounds on a rollout stops (as the seat's own turn ends);
    kept_by_greedy: greedy's favourites always weighed and kept past the first table;
    kept_by_first_table: how many others the first table's best may keep in the running;
    first_halving: the pass after which the worse half first drops out (then each doubling);
    first_pass_share: under a time budget, the share of it past which the first pass weighs no
    more of greedy's lesser choices (0: never, as lookahead)."""

    rounds: int
    kept_by_greedy: int
    kept_by_first_table: int
    first_halving: int
    first_pass_share: float


BREADTH = {
    2: Breadth(
        rounds=3, kept_by_greedy=8, kept_by_first_table=4, first_halving=4, first_pass_share=0.25
    ),
    3: Breadth(
        rounds=2, kept_by_greedy=6, kept_by_first_table=0, first_halving=8, first_pass_share=0.0
    ),
    4: Breadth(
        rounds=2, kept_by_greedy=6, kept_by_first_table=0, first_halving=8, first_pass_share=0.0
    ),
}


class _Arm(Tally[Action]):
    """The running totals of one action over the sampled tables: beside the tally's points and
    wins, greedy's rank of it and the score the search ranks by."""

    __slots__ = ("prior", "score")

    def __init__(self, action: Action, prior: int) -> None:
        super().__init__(action)
        self.prior = prior
        self.score = 0.0

    def mean(self) -> float:
        """The mean score over the tables it was played on (the unplayed last)."""
        return self.score / self.visits if self.visits else -1e18

    def key(self) -> tuple[float, int]:
        """How good the action looks: mean score first, then greedy's rank."""
        return (self.mean(), -self.prior)


def _final_points(state: State, seat: int) -> float:
    """The seat's points at the end of a rollout (the game's final points if it ended)."""
    return float(state.bakers[seat].points)


def _win_share(state: State, seat: int) -> float:
    """The seat's share of the win if the rollout ended the game, else its chance from there."""
    if state.over:
        won = winners(state)
        return 1.0 / len(won) if seat in won else 0.0
    return win_chance(state, seat)


def _outcome(state: State, seat: int) -> float:
    """The score of a rollout's end: a finished game by its result, else the seat's chance of
    winning from its standing, on the same scale (a sure win is WIN_VALUE, a sure loss minus it)."""
    if not state.over:
        return WIN_VALUE * (2.0 * win_chance(state, seat) - 1.0)
    points = [b.points for b in state.bakers]
    mine = points[seat]
    rival = max(p for s, p in enumerate(points) if s != seat)
    return WIN_VALUE * (2.0 * _win_share(state, seat) - 1.0) + mine - rival


def _play_out(state: State, seat: int, arm: _Arm, seed: int, rounds: int) -> None:
    """Play the arm's action on a sampled table, roll out, and add what came of it.

    The rollout ends as the seat's own turn ends, `rounds` rounds after this one (a turn that
    must put ingredients back first ends later, so it is judged at the same moment), or with
    the game."""
    after = apply_action(state, seat, arm.action)
    stop = state.turns_done + 1 + rounds * state.players
    after = rollout(after, stop - after.turns_done, random.Random(seed))
    arm.score += _outcome(after, seat)
    arm.add(_final_points(after, seat), _win_share(after, seat))


def _first_cut(arms: list[_Arm], breadth: Breadth) -> list[_Arm]:
    """After one table: greedy's favourites, and the few that did best on it, stay in."""
    by_table = sorted(arms, key=_Arm.key, reverse=True)[: breadth.kept_by_first_table]
    return [a for a in arms if a.prior < breadth.kept_by_greedy or (a in by_table and a.visits)]


def _search(
    view: View,
    legal: list[Action],
    rng: random.Random,
    seconds: float,
    iterations: int | None,
    to_end: bool,
) -> list[_Arm]:
    """Successive halving over the legal actions on shared sampled tables, until the budget."""
    seat = own_seat(view)
    breadth = BREADTH[view["players"]]
    rounds = GAME_ROUNDS if to_end else breadth.rounds
    budget = Budget(seconds, iterations)
    first = sample_state(view, rng)
    order = ranked(first, seat, legal, rng)
    arms = [_Arm(a, i) for i, a in enumerate(order)]
    alive = list(arms)
    passes = 0
    next_cut = breadth.first_halving
    while True:
        state = first if passes == 0 else sample_state(view, rng)
        seed = rng.getrandbits(32)
        for arm in alive:
            if (
                passes == 0
                and arm.prior >= breadth.kept_by_greedy
                and budget.past(breadth.first_pass_share)
            ):
                break  # greedy's lesser choices only while the budget allows
            _play_out(state, seat, arm, seed, rounds)
        passes += 1
        if budget.spent(passes):
            break
        if passes == 1:
            alive = _first_cut(alive, breadth)
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
    to_end: bool = False,
) -> list[Weighed[Action]]:
    """Every legal action, best first, from this seat's view only, thinking about `seconds` of
    CPU (or exactly `iterations` passes over the sampled tables, for reproducible reviews).

    At the table the rollouts stop a few rounds on (BREADTH's `rounds`), where the standing tells
    the best action well and cheaply; `to_end` plays each to the game's end instead (a review's
    way), so `expected` and `win` are the final points and the win themselves, not a guess from
    there. Under a time budget, an action outside greedy's `kept_by_greedy` favourites is played
    out only while the first pass fits in `first_pass_share` of it; one never played comes last,
    with 0 visits, the seat's points now and no chance of winning. With `iterations`, all are
    weighed."""
    if not legal:
        return []
    arms = _search(view, legal, rng, seconds, iterations, to_end)
    now = float(view["seats"][own_seat(view)]["points"])
    return [arm.weighed(now) for arm in arms]


def choose_within(view: View, legal: list[Action], rng: random.Random, seconds: float) -> Action:
    """The master's pick thinking about `seconds` of CPU (at once when there is no choice)."""
    if len(legal) == 1:
        return legal[0]
    return weigh(view, legal, rng, seconds=seconds)[0].action


def with_budget(seconds: float) -> Choose:
    """A master's choose function thinking about that many seconds of CPU a decision (a partial
    of a module-level function, so it pickles to a thinking process)."""
    return partial(choose_within, seconds=seconds)


def choose_master(view: View, legal: list[Action], rng: random.Random) -> Action:
    """The master's pick with the default budget MASTER_SECONDS."""
    return choose_within(view, legal, rng, MASTER_SECONDS)
