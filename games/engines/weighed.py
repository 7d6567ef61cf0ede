"""What a master bot's search says of one legal action (both engines' `master.weigh`; the
reviews read it): shared, as `IllegalAction` is, so every game's search answers in one shape.
`Tally` is what each search sums for an action as it plays it out, and turns into a `Weighed`."""

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Generic, TypeVar

A = TypeVar("A", bound=Mapping[str, object])


@dataclass(frozen=True)
class Weighed(Generic[A]):
    """One legal action, weighed from the seat's view."""

    action: A
    # The seat's expected points if it is taken: final points, truffle bonus included (a
    # Cakehalla search that stops short of the end, where its rollouts stop: weigh's `to_end`).
    expected: float
    win: float  # the estimated chance of winning (a shared win counts as a share), 0..1
    visits: int  # on how many sampled deals it was played out


class Tally(Generic[A]):
    """One action's running sums over the sampled deals it was played out on (a search's own
    subclass adds what else it keeps: slotted, as the searches' hot loop reads them)."""

    __slots__ = ("action", "points", "visits", "wins")

    def __init__(self, action: A) -> None:
        self.action = action
        self.points = 0.0
        self.wins = 0.0
        self.visits = 0

    def add(self, points: float, win: float) -> None:
        """One more deal played out: the seat's points at its end and its share of the win."""
        self.points += points
        self.wins += win
        self.visits += 1

    def weighed(self, unplayed: float) -> Weighed[A]:
        """The means over the deals played; never played, `unplayed` points and no win."""
        if not self.visits:
            return Weighed(self.action, unplayed, 0.0, 0)
        return Weighed(self.action, self.points / self.visits, self.wins / self.visits, self.visits)
