"""What a master bot's search says of one legal action (both engines' `master.weigh`; the
reviews read it): shared, as `IllegalAction` is, so every game's search answers in one shape."""

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
