"""The greedy baker: it weighs what each pastry is worth to its case now, from its own view.

The master bot (master.py) plays its nights out with this same Table, so both live below bots.py."""

import random
from collections import Counter
from collections.abc import Callable

from games.engines.midnight_bakery.scoring import (
    BAGUETTE_RANK_POINTS,
    THIRD_RANK_FROM,
    bun_points,
)
from games.engines.midnight_bakery.shapes import Action, CaseCard, View

Bot = Callable[[View, list[Action], random.Random], Action]

TART_VALUE = {"jam": 1, "fruit": 2, "chocolate": 3}
LOAVES = {"baguette-1": 1, "baguette-2": 2, "baguette-3": 3}
BAKES = 3


class Table:
    """What the greedy baker reads off its view before weighing each pastry."""

    def __init__(self, view: View) -> None:
        seats = view["seats"]
        seat = view["seat"]
        if seat is None:
            raise TypeError("A bot plays from its own seat's view, not a spectator's.")
        me = seats[seat]
        self.bakers: int = view["bakers"]
        self.bake: int = view["bake"]
        self.future = max(len(view["batch"]) - 1, 0)
        self.counts = Counter(card["face"] for card in me["case"])
        self.unglazed = sum(
            1 for card in me["case"] if card["face"] in TART_VALUE and not card["glazed"]
        )
        self.waiting: int = me["waiting_glazes"]
        self.truffles: int = me["truffles"]
        self.rival_truffles = max(s["truffles"] for s in seats if s is not me)
        self.loaves = self.loaves_of(me["case"])
        self.rival_loaves = [self.loaves_of(s["case"]) for s in seats if s is not me]

    @staticmethod
    def loaves_of(case: list[CaseCard]) -> int:
        """The loaf total of a public case."""
        return sum(LOAVES.get(card["face"], 0) for card in case)

    def hope(self, picks: float) -> float:
        """A rough chance of finding what a set still needs in the picks left this bake."""
        return min(1.0, self.future / picks)

    def baguette_points(self, loaves: int) -> int:
        """What these loaves would pay if the bake ended with the cases as they are."""
        if loaves == 0:
            return 0
        rank = 1 + sum(1 for other in self.rival_loaves if other > loaves)
        if rank == 3 and self.bakers < THIRD_RANK_FROM:
            return 0
        return BAGUETTE_RANK_POINTS.get(rank, 0)

    def worth(self, face: str) -> float:
        """What keeping one more of this face is worth to this case now."""
        count = self.counts[face]
        if face == "croissant":
            return 4.0 if count % 2 else 4.0 * 0.45 * self.hope(3)
        if face == "macaron":
            need = 2 - count % 3
            return 9.0 if need == 0 else 9.0 * (0.4 if need == 1 else 0.22) * self.hope(3 * need)
        if face == "bun":
            return float(bun_points(count + 1) - bun_points(count)) + 0.5 * self.hope(4)
        if face in TART_VALUE:
            glaze = 4.0 if self.waiting else 0.0
            return TART_VALUE[face] + glaze
        if face == "glaze":
            return 4.0 if self.unglazed else 4.0 * 0.35 * self.hope(3)
        if face in LOAVES:
            more = self.loaves + LOAVES[face]
            gain = self.baguette_points(more) - self.baguette_points(self.loaves)
            return gain + 0.9 * LOAVES[face] * self.hope(3)
        if face == "truffle":
            return self.truffle_worth()
        if face == "peel":
            return 3.0 * min(1.0, (self.future - 1) / 3) if self.future >= 2 else 0.0
        return 0.0

    def truffle_worth(self) -> float:
        """Dawn's truffle race: escape the -3, then reach or keep the lead."""
        mine, best = self.truffles, self.rival_truffles
        value = 3.0 if mine == 0 else 0.0
        if mine + 1 > best:
            value += 3.5 if mine <= best else 1.5
        elif mine + 1 == best:
            value += 3.0
        else:
            value += 1.0
        return value * (0.7 + 0.1 * self.bake)

    def after(self, face: str) -> "Table":
        """The same table once this face has been filed."""
        new = Table.__new__(Table)
        new.__dict__.update(self.__dict__)
        new.counts = self.counts.copy()
        new.counts[face] += 1
        if face in TART_VALUE:
            new.unglazed, new.waiting = self.unglazed + 1, self.waiting
        elif face == "glaze":
            new.unglazed, new.waiting = self.unglazed, self.waiting + 1
        if new.waiting and new.unglazed:
            matched = min(new.waiting, new.unglazed)
            new.waiting -= matched
            new.unglazed -= matched
        if face == "truffle":
            new.truffles = self.truffles + 1
        new.loaves = self.loaves + LOAVES.get(face, 0)
        return new

    def pair_worth(self, first: str, second: str) -> float:
        """Two faces taken together with a Peel."""
        return self.worth(first) + self.after(first).worth(second)

    def peel_reserve(self) -> float:
        """What keeping the Peel for a later pick is still worth."""
        return 2.5 * min(1.0, (self.future - 1) / 4) if self.future >= 3 else 0.0


def card_face(card: str) -> str:
    """The face of a card id."""
    return card.rsplit("-", 1)[0]


def choose_greedy(view: View, legal: list[Action], rng: random.Random) -> Action:
    """Complete sets, time glazes, contest baguettes, mind truffles, spend Peels on good pairs."""
    table = Table(view)
    single: dict[str, float] = {}
    pairs: dict[tuple[str, str], float] = {}
    best, best_value = legal[0], float("-inf")
    for action in legal:
        if action["type"] == "keep":
            face = card_face(action["card"])
            if face not in single:
                single[face] = table.worth(face)
            value = single[face]
        else:
            first, second = sorted(card_face(card) for card in action["cards"])
            key = (first, second)
            if key not in pairs:
                pairs[key] = table.pair_worth(first, second) - table.peel_reserve()
            value = pairs[key]
        value += rng.random() * 1e-3
        if value > best_value:
            best, best_value = action, value
    return best
