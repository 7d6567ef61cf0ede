"""The master baker: it plays each of its choices out over many ways the hidden cards could lie.

A determinized Monte Carlo search from the seat's view alone (sampling.py): every round deals
the unseen cards one way, then plays the night to dawn once for each choice still in the
running, every baker greedy after this pick (playout.py). A caller that keeps the seat's memory
of its bake (its own earlier views) hands it in, and the batches the seat passed on are then
placed, not dealt: that is what a person at the table remembers, and it is most of the
master's strength (at two bakers it knows every batch from the third pick on).

All choices of a round share its deal and its dice, so they are compared on the same night and
the differences are not drowned by luck. Every two rounds the weaker half drops out, until three
remain; those share what is left of the budget. The budget is CPU time of the calling thread,
so a busy machine makes the master slower, never weaker.
"""

import functools
import random
from collections.abc import Sequence

from games.engines.budget import Budget
from games.engines.midnight_bakery.cards import face_of
from games.engines.midnight_bakery.greedy import Bot, Table
from games.engines.midnight_bakery.playout import Choice, play_out
from games.engines.midnight_bakery.sampling import (
    Memory,
    determinize,
    passed_batches,
    public_night,
    remembered,
    unseen_faces,
)
from games.engines.midnight_bakery.shapes import Action, View
from games.engines.weighed import Tally, Weighed

MASTER_SECONDS = 0.25
# How much a point of final score weighs against a whole win when ranking choices: enough to
# tell apart choices that win equally often, too little to trade a win for points.
POINT_WEIGHT = 0.01
FINALISTS = 3
# At the table the master plays out only the Peel pairs greedy's own sums rank highest: a batch
# of ten makes up to 45 pairs, most of them plainly poor, and a review weighs them all.
PEEL_SHORTLIST = 4


class Candidate(Tally[Action]):
    """A choice in the running: its representative action and what its nights came to (beside
    the tally's points and wins, its summed lead over the best other baker)."""

    __slots__ = ("choice", "dropped", "lead")

    def __init__(self, action: Action, choice: Choice) -> None:
        super().__init__(action)
        self.choice = choice
        self.lead = 0.0
        self.dropped = -1  # the round it dropped out in; -1 while still in the running

    def worth(self) -> float:
        """Wins first, then the lead over the best other baker to break near-ties."""
        if not self.visits:
            return float("-inf")
        return (self.wins + POINT_WEIGHT * self.lead) / self.visits


def choice_of(action: Action) -> Choice:
    """The faces an action takes, a Peel's two sorted: actions with equal faces are equal."""
    if action["type"] == "keep":
        return (face_of(action["card"]),)
    first, second = sorted(face_of(card) for card in action["cards"])
    return (first, second)


def candidates(legal: list[Action]) -> list[Candidate]:
    """One candidate per distinct choice, its first legal action standing for the rest."""
    seen: dict[Choice, Candidate] = {}
    for action in legal:
        choice = choice_of(action)
        if choice not in seen:
            seen[choice] = Candidate(action, choice)
    return list(seen.values())


def shortlisted(view: View, field: list[Candidate], peels: int) -> list[Candidate]:
    """Every keep, and only the `peels` Peel pairs the greedy Table values most."""
    table = Table(view)
    pairs = [c for c in field if len(c.choice) == 2]
    pairs.sort(key=lambda c: table.pair_worth(*c.choice), reverse=True)
    return [c for c in field if len(c.choice) == 1] + pairs[:peels]


def still_running(field: list[Candidate], rounds: int) -> list[Candidate]:
    """The choices played this round: the best half of those running, halved every two
    rounds, never fewer than FINALISTS. The rest are marked as dropped this round."""
    running = [c for c in field if c.dropped < 0]
    width = max(FINALISTS, len(field) >> (rounds // 2))
    if len(running) <= width:
        return running
    running.sort(key=Candidate.worth, reverse=True)
    for dropped in running[width:]:
        dropped.dropped = rounds
    return running[:width]


def ranked(field: list[Candidate]) -> list[Candidate]:
    """Best first: those still running by worth, then the dropped, the last to drop first."""
    return sorted(
        field,
        key=lambda c: (c.dropped < 0, c.dropped, c.worth()),
        reverse=True,
    )


def weigh(
    view: View,
    legal: list[Action],
    rng: random.Random,
    *,
    seconds: float = MASTER_SECONDS,
    iterations: int | None = None,
    peels: int | None = None,
    memory: Memory | None = None,
) -> list[Weighed[Action]]:
    """Every distinct legal action, best first, from this seat's view only.

    It thinks for about `seconds` of this thread's CPU time, or, given `iterations`, for exactly
    that many played-out nights (reproducible for a seed, whatever the machine). The first round
    always plays every choice once, so each has a figure. Given `peels`, only that many Peel
    pairs are weighed (the table's shortlist), and the others are left out of the answer."""
    seat = view["seat"]
    if seat is None:
        raise TypeError("The master plays from its own seat's view, not a spectator's.")
    budget = Budget(seconds, iterations)
    known = passed_batches(view, memory or {})
    public = public_night(view, known)
    unseen = unseen_faces(view, known)
    field = candidates(legal)
    if peels is not None:
        field = shortlisted(view, field, peels)
    played = rounds = 0
    while True:
        world = determinize(public, view, unseen, rng, known)
        dice = rng.getrandbits(64)
        for candidate in still_running(field, rounds):
            night = world.copy()
            points, win, lead = play_out(night, seat, candidate.choice, random.Random(dice))
            candidate.add(points, win)
            candidate.lead += lead
            played += 1
            if rounds and budget.spent(played):
                return best_first(field)
        rounds += 1
        if budget.spent(played):
            return best_first(field)


def best_first(field: list[Candidate]) -> list[Weighed[Action]]:
    """What the reviews and the site read, best first (every choice was played at least once)."""
    return [c.weighed(0.0) for c in ranked(field)]


def decide(
    view: View,
    legal: list[Action],
    rng: random.Random,
    *,
    seconds: float = MASTER_SECONDS,
    memory: Memory | None = None,
) -> Action:
    """The master's pick at the table: Peel pairs shortlisted, with one choice no thought, and
    the seat's memory of this bake if the caller keeps one (sampling.remembered)."""
    if len(candidates(legal)) == 1:
        return legal[0]
    return weigh(view, legal, rng, seconds=seconds, peels=PEEL_SHORTLIST, memory=memory)[0].action


def with_budget(seconds: float) -> Bot:
    """The master with another thinking budget (the site's setting), same signature as the
    other bots; a partial of a module-level function, so it pickles to a thinking process."""
    return functools.partial(decide, seconds=seconds)


def remembering(seconds: float, views: Sequence[View]) -> Bot:
    """The master with that budget and the seat's memory of this bake, read from its own earlier
    views (sampling.remembered): a partial of a module-level function, so it pickles."""
    return functools.partial(decide, seconds=seconds, memory=remembered(views))


def choose_master(view: View, legal: list[Action], rng: random.Random) -> Action:
    """The master's pick with the default budget, MASTER_SECONDS of CPU."""
    return with_budget(MASTER_SECONDS)(view, legal, rng)
