"""A night played out fast, by faces only, with every baker greedy: the master's rollouts.

The engine's State names every card and logs every event, which a real night needs and a
rollout does not: here a case is a handful of counts, enough to score it exactly (a glaze is
worth 4 on whichever tart it lands, so only how many tarts are glazed matters). A playout is
about thirty times cheaper than the same night through `apply_action`, which is what lets the
master weigh hundreds of nights within a quarter of a second.
"""

import random
from collections import Counter

from games.engines.midnight_bakery.cards import (
    BUN,
    CROISSANT,
    GLAZE,
    LOAVES,
    MACARON,
    PEEL,
    TART_FACE_VALUE,
    TRUFFLE,
)
from games.engines.midnight_bakery.greedy import Table
from games.engines.midnight_bakery.scoring import (
    GLAZE_BONUS,
    baguette_points,
    bun_points,
    croissant_points,
    macaron_points,
    truffle_bonus,
    winners,
)

BAKES = 3
Choice = tuple[str, ...]  # one face kept, or two taken with a Peel


class Case:
    """One seat's case this bake, as counts: what scoring and the greedy Table read."""

    __slots__ = ("counts", "tarts", "unglazed", "glazed", "waiting", "loaves", "peels")

    def __init__(self) -> None:
        self.counts: Counter[str] = Counter()
        self.tarts = 0  # the tarts' face values
        self.unglazed = 0
        self.glazed = 0
        self.waiting = 0
        self.loaves = 0
        self.peels = 0

    def copy(self) -> "Case":
        """A case that shares nothing mutable with this one."""
        new = Case.__new__(Case)
        new.counts = self.counts.copy()
        new.tarts, new.unglazed, new.glazed = self.tarts, self.unglazed, self.glazed
        new.waiting, new.loaves, new.peels = self.waiting, self.loaves, self.peels
        return new

    def file(self, face: str) -> None:
        """File one kept face (truffles go to the box, not here)."""
        value = TART_FACE_VALUE.get(face)
        if value is not None:
            self.tarts += value
            self.unglazed += 1
        elif face == GLAZE:
            self.waiting += 1
        elif face == PEEL:
            self.peels += 1
        else:
            loaves = LOAVES.get(face)
            if loaves is not None:
                self.loaves += loaves
            else:
                self.counts[face] += 1

    def match_glazes(self) -> None:
        """Waiting glazes land on unglazed tarts, one each."""
        matched = min(self.waiting, self.unglazed)
        if matched:
            self.waiting -= matched
            self.unglazed -= matched
            self.glazed += matched

    def points(self) -> int:
        """Croissants, macarons, buns and tarts (baguettes are ranked across the table)."""
        counts = self.counts
        return (
            croissant_points(counts[CROISSANT])
            + macaron_points(counts[MACARON])
            + bun_points(counts[BUN])
            + self.tarts
            + GLAZE_BONUS * self.glazed
        )


class Night:
    """A night by faces: batches, cases, truffle boxes, banked points and the deck to deal."""

    __slots__ = (
        "bakers",
        "ring",
        "owl",
        "passing",
        "bake",
        "batch_size",
        "batches",
        "cases",
        "truffles",
        "banked",
        "deck",
    )

    def __init__(self, bakers: int, ring: int, passing: str, bake: int, batch_size: int) -> None:
        self.bakers = bakers
        self.ring = ring
        self.owl = ring > bakers
        self.passing = passing
        self.bake = bake
        self.batch_size = batch_size
        self.batches: list[list[str]] = [[] for _ in range(ring)]
        self.cases = [Case() for _ in range(ring)]
        self.truffles = [0] * ring
        self.banked = [0] * bakers
        self.deck: list[str] = []

    def copy(self) -> "Night":
        """A night that shares nothing mutable with this one."""
        new = Night.__new__(Night)
        new.bakers, new.ring, new.owl = self.bakers, self.ring, self.owl
        new.passing, new.bake, new.batch_size = self.passing, self.bake, self.batch_size
        new.batches = [batch[:] for batch in self.batches]
        new.cases = [case.copy() for case in self.cases]
        new.truffles = self.truffles[:]
        new.banked = self.banked[:]
        new.deck = self.deck[:]
        return new

    def step(self) -> int:
        """+1 to pass to the next seat, -1 to the previous one (bake 2 under Alternate)."""
        return -1 if self.passing == "alternate" and self.bake == 2 else 1


def table_for(night: Night, seat: int) -> Table:
    """The greedy baker's Table for one seat, read off the counts instead of a view."""
    case = night.cases[seat]
    table = Table.__new__(Table)
    table.bakers = night.bakers
    table.bake = night.bake
    table.future = max(len(night.batches[seat]) - 1, 0)
    table.counts = case.counts
    table.unglazed = case.unglazed
    table.waiting = case.waiting
    table.truffles = night.truffles[seat]
    table.rival_truffles = max(n for s, n in enumerate(night.truffles) if s != seat)
    table.loaves = case.loaves
    table.rival_loaves = [c.loaves for s, c in enumerate(night.cases) if s != seat]
    return table


def greedy_choice(night: Night, seat: int, rng: random.Random) -> Choice:
    """What the greedy bot keeps from this batch (ties broken at random, as it does)."""
    batch = night.batches[seat]
    if len(batch) == 1:
        return (batch[0],)
    table = table_for(night, seat)
    faces = sorted(set(batch))  # a set's order follows the hash seed; sorted, every process agrees
    best: Choice = (batch[0],)
    best_value = float("-inf")
    for face in faces:
        value = table.worth(face) + rng.random() * 1e-3
        if value > best_value:
            best, best_value = (face,), value
    if night.cases[seat].peels and len(batch) >= 2:
        reserve = table.peel_reserve()
        for first, second in face_pairs(batch):
            value = table.pair_worth(first, second) - reserve + rng.random() * 1e-3
            if value > best_value:
                best, best_value = (first, second), value
    return best


def face_pairs(batch: list[str]) -> list[tuple[str, str]]:
    """Every distinct pair of faces a Peel could take from this batch, each once, sorted."""
    counts = Counter(batch)
    faces = sorted(counts)
    pairs = []
    for i, first in enumerate(faces):
        if counts[first] >= 2:
            pairs.append((first, first))
        pairs.extend((first, second) for second in faces[i + 1 :])
    return pairs


def keep(night: Night, seat: int, choice: Choice) -> None:
    """Take the chosen faces out of the batch and file them (a Peel is spent for two)."""
    batch = night.batches[seat]
    case = night.cases[seat]
    if len(choice) == 2:
        case.peels -= 1
    for face in choice:
        batch.remove(face)
        if face == TRUFFLE:
            night.truffles[seat] += 1
        else:
            case.file(face)
    case.match_glazes()


def owl_snatch(night: Night, rng: random.Random) -> None:
    """The owl keeps a card of its batch at random."""
    batch = night.batches[night.bakers]
    if batch:
        face = batch.pop(rng.randrange(len(batch)))
        if face == TRUFFLE:
            night.truffles[night.bakers] += 1
        else:
            night.cases[night.bakers].file(face)


def pass_batches(night: Night) -> None:
    """Every batch moves one seat along the ring."""
    ring, step = night.ring, night.step()
    moved: list[list[str]] = [[] for _ in range(ring)]
    for seat, batch in enumerate(night.batches):
        moved[(seat + step) % ring] = batch
    night.batches = moved


def settle(night: Night, rng: random.Random) -> bool:
    """The owl alone with cards, bake ends and deals; False once dawn has come."""
    while True:
        if any(night.batches[: night.bakers]):
            return True
        if not any(night.batches):
            if not end_bake(night):
                return False
            continue
        owl_snatch(night, rng)
        pass_batches(night)


def end_bake(night: Night) -> bool:
    """Bank the bake's points, clear the cases, deal the next bake; False at dawn."""
    loaves = baguette_points([case.loaves for case in night.cases], night.bakers)
    for seat in range(night.bakers):
        night.banked[seat] += night.cases[seat].points() + loaves[seat]
    night.cases = [Case() for _ in range(night.ring)]
    if night.bake >= BAKES or not night.deck:
        return False
    night.bake += 1
    size = night.batch_size
    deck = night.deck
    night.batches = [deck[i * size : (i + 1) * size] for i in range(night.ring)]
    night.deck = deck[night.ring * size :]
    return True


def pick(night: Night, chosen: dict[int, Choice], rng: random.Random) -> bool:
    """One pick: the given seats' choices, greedy for every other baker holding cards; then the
    owl, the pass and whatever follows by itself. False once dawn has come."""
    choices = {
        seat: chosen.get(seat) or greedy_choice(night, seat, rng)
        for seat in range(night.bakers)
        if night.batches[seat]
    }
    for seat, choice in choices.items():
        keep(night, seat, choice)
    if night.owl:
        owl_snatch(night, rng)
    pass_batches(night)
    return settle(night, rng)


def play_out(night: Night, seat: int, choice: Choice, rng: random.Random) -> tuple[int, float, int]:
    """Play the night to dawn from this pick, the seat taking `choice` now and everyone greedy
    after: the seat's final score (truffle bonus included), its share of the win, and its lead
    over the best other baker (negative when behind)."""
    going = pick(night, {seat: choice}, rng)
    while going:
        going = pick(night, {}, rng)
    owl = night.truffles[night.bakers] if night.owl else None
    boxes = night.truffles[: night.bakers]
    bonus = truffle_bonus(boxes, owl)
    scores = [banked + extra for banked, extra in zip(night.banked, bonus, strict=True)]
    won = winners(scores, boxes)
    best_other = max(score for other, score in enumerate(scores) if other != seat)
    return scores[seat], (1.0 / len(won) if seat in won else 0.0), scores[seat] - best_other
