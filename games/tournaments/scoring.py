"""What a tournament table is worth, over plain data (no Django): points by place, a Swiss bye's
points, the arena's streak bonus, and the standings' order and figures (the tie-breaks: points,
Buchholz, wins, rating at entry)."""

from __future__ import annotations

import statistics
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

DEFAULT_POINTS: dict[int, tuple[float, ...]] = {2: (6, 0), 3: (6, 3, 0), 4: (6, 4, 2, 0)}
"""Points by place at a table of 2, 3 and 4; larger tables spread 6 to 0 evenly."""

TOP_POINTS = 6.0


def place_points(size: int, custom: Mapping[str, Sequence[float]] | None = None) -> list[float]:
    """The points of each place (1st first) at a table of `size`: the tournament's own list for
    that size if it has one, else the defaults (6/0, 6/3/0, 6/4/2/0, then 6 to 0 evenly)."""
    own = (custom or {}).get(str(size))
    if own is not None and len(own) == size:
        return [float(p) for p in own]
    if size in DEFAULT_POINTS:
        return [float(p) for p in DEFAULT_POINTS[size]]
    if size <= 1:
        return [TOP_POINTS] * size
    return [round(TOP_POINTS * (size - 1 - i) / (size - 1), 2) for i in range(size)]


def points_by_place(
    places: Sequence[int], custom: Mapping[str, Sequence[float]] | None = None
) -> list[float]:
    """Each seat's points from its place (1 is first) at one table: seats that share a place
    share its points and the next ones' (averaged: a tie for 1st at 6/4/2/0 gives 5 each)."""
    table = place_points(len(places), custom)
    points = []
    for place in places:
        shared = sum(1 for p in places if p == place)
        first = place - 1
        points.append(round(sum(table[first : first + shared]) / shared, 2))
    return points


def bye_points(seats: int, custom: Mapping[str, Sequence[float]] | None = None) -> float:
    """A Swiss bye's points: the median place's at a full table (3 at 6/4/2/0)."""
    return float(statistics.median(place_points(seats, custom)))


def streak_bonus(won: bool, wins_in_a_row: int, bonus: int) -> int:
    """The arena's bonus for a win that follows two or more wins in a row."""
    return bonus if won and wins_in_a_row >= 2 else 0


# --- standings ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Standing:
    """One entrant's figures going into a round."""

    entrant: int
    points: float = 0.0
    buchholz: float = 0.0
    wins: int = 0
    rating: int = 1500
    byes: int = 0


def standing_key(s: Standing) -> tuple[float, float, int, int, int]:
    """Sorts the leader first: points, Buchholz, wins, rating, then the earlier entrant."""
    return (-s.points, -s.buchholz, -s.wins, -s.rating, s.entrant)


def ranked(people: Iterable[Standing]) -> list[Standing]:
    """The entrants in standing order, the leader first."""
    return sorted(people, key=standing_key)


@dataclass(frozen=True)
class Played:
    """One recorded table (or bye) of an entrant: what it scored and whom it met."""

    points: float
    won: bool
    opponents: tuple[int, ...]
    bye: bool = False


@dataclass(frozen=True)
class Figures:
    """An entrant's standing figures, recomputed from every recorded table."""

    points: float
    buchholz: float
    wins: int
    games: int
    byes: int
    streak: int


def figures(history: Mapping[int, Sequence[Played]]) -> dict[int, Figures]:
    """Each entrant's figures from their tables in the order played: points, Buchholz (the sum
    of the points of everyone they met, once per meeting), wins, games, byes and the wins in a
    row they end on."""
    points = {e: round(sum(p.points for p in played), 2) for e, played in history.items()}
    result = {}
    for entrant, played in history.items():
        streak = 0
        for p in played:
            if not p.bye:
                streak = streak + 1 if p.won else 0
        met = [o for p in played for o in p.opponents]
        result[entrant] = Figures(
            points=points[entrant],
            buchholz=round(sum(points.get(o, 0.0) for o in met), 2),
            wins=sum(1 for p in played if p.won and not p.bye),
            games=sum(1 for p in played if not p.bye),
            byes=sum(1 for p in played if p.bye),
            streak=streak,
        )
    return result
