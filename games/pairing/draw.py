"""The quick pairing pass over plain data: who sits down together now (no Django here).

A pass looks at the seekers of one pool (or several; only the same game and pace ever meet),
oldest first. For each seeker not yet placed it searches the younger ones still free for a
group that may start now: people of the same game and pace whose player counts overlap, each
within every other's rating window at `now`, with no block between any two, and no bot account
beside a person who did not say bots are welcome (bot accounts welcome each other). A group starts
when it is full (it reached the largest count all of them accept), or when it has at least
everyone's fewest and its oldest has waited SETTLE_SECONDS, or when all of its people asked for
bots and waited that long (the bots fill it up to their fewest). The search is depth-first over
the younger seekers in age order, so the oldest seeker always gets the first choice and equal
input always gives the same groups.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

WINDOW_START = 100
"""Rating points either side of a seeker's own rating when they start looking."""
WINDOW_STEP = 50
"""Rating points the window widens by on each side every WINDOW_EVERY seconds waited."""
WINDOW_EVERY = 5.0
SETTLE_SECONDS = 8.0
"""How long the oldest of a group that is not full waits for more people before it starts."""
SEARCH_BUDGET = 2_000
"""Groups tried per seeker and pass at most: a bound on a pathological pool; one that runs out
waits for the next pass (a second later, the pool and the windows moved on)."""


@dataclass(frozen=True)
class Seeker:
    """One person looking for a game: what they accept, and since when (seconds)."""

    person: int
    kind: str
    pace: str
    fewest: int
    most: int
    rating: int
    since: float
    bots_after: float | None = None
    bot: bool = False
    """A bot account (a program playing through the API)."""
    bots_welcome: bool = False
    """Bot accounts may sit with them (a bot account's own seek always says so)."""


@dataclass(frozen=True)
class Group:
    """People who sit down together now (the oldest first), and the bots that fill the table."""

    kind: str
    pace: str
    people: tuple[int, ...]
    bots: int = 0


def window(seeker: Seeker, now: float) -> int:
    """How far from their rating (either side) the seeker accepts others at `now`."""
    waited = max(0.0, now - seeker.since)
    return WINDOW_START + WINDOW_STEP * int(waited // WINDOW_EVERY)


def blocked_key(a: int, b: int) -> tuple[int, int]:
    """A pair of people as the blocked set holds it, whoever blocks whom."""
    return (a, b) if a < b else (b, a)


def blocked_set(pairs: Iterable[tuple[int, int]]) -> frozenset[tuple[int, int]]:
    """The (blocker, blocked) pairs as unordered pairs: a block keeps both apart either way."""
    return frozenset(blocked_key(a, b) for a, b in pairs)


class _Seen:
    """A seeker as one pass reads them: their window at `now`, and whether they may start (plain
    attributes, read many times a pass)."""

    __slots__ = (
        "bot",
        "bots_ready",
        "fewest",
        "index",
        "most",
        "person",
        "rating",
        "seeker",
        "settled",
        "welcomes",
        "window",
    )

    def __init__(self, index: int, seeker: Seeker, now: float) -> None:
        self.index = index
        self.seeker = seeker
        self.person = seeker.person
        self.rating = seeker.rating
        self.fewest = seeker.fewest
        self.most = seeker.most
        self.window = window(seeker, now)
        self.settled = now - seeker.since >= SETTLE_SECONDS
        self.bots_ready = seeker.bots_after is not None and now - seeker.since >= seeker.bots_after
        self.bot = seeker.bot
        self.welcomes = seeker.bots_welcome or seeker.bot


def _fits(a: _Seen, b: _Seen, blocked: frozenset[tuple[int, int]]) -> bool:
    """Whether two seekers of one pool may sit at one table (the pass's innermost question,
    written without calls)."""
    reach = a.window if a.window < b.window else b.window
    gap = a.rating - b.rating
    if gap > reach or -gap > reach:
        return False
    fewest = a.fewest if a.fewest > b.fewest else b.fewest
    if fewest > (a.most if a.most < b.most else b.most):
        return False
    if (b.bot and not a.welcomes) or (a.bot and not b.welcomes):
        return False
    if not blocked:
        return True
    return ((a.person, b.person) if a.person < b.person else (b.person, a.person)) not in blocked


class _Search:
    """The depth-first search of one seeker's group among younger free seekers of their pool."""

    def __init__(self, blocked: frozenset[tuple[int, int]]) -> None:
        self.blocked = blocked
        self.budget = 0

    def group(self, first: _Seen, candidates: list[_Seen]) -> list[_Seen] | None:
        """A group with `first` as its oldest that may start now, or None."""
        self.budget = SEARCH_BUDGET
        return self.extend([first], first.fewest, first.most, first.bots_ready, candidates)

    def extend(
        self, group: list[_Seen], fewest: int, most: int, bots: bool, candidates: list[_Seen]
    ) -> list[_Seen] | None:
        """The first group that may start found from this one by adding candidates in age
        order; this one if none is and it may start as it is."""
        if len(group) == most:
            return group  # full: everyone's largest count is reached
        self.budget -= 1
        if self.budget < 0:
            return None
        # Every group reachable from here has at most len(group) + len(candidates) people; one
        # that must be full to start (its oldest has not settled, someone wants no bots) needs
        # at least the smallest "most" among them all.
        reach = len(group) + len(candidates)
        partial = group[0].settled or bots
        if reach >= fewest and (partial or reach >= min([most, *(c.most for c in candidates)])):
            for index, candidate in enumerate(candidates):
                low, high = max(fewest, candidate.fewest), min(most, candidate.most)
                if len(group) >= high:
                    continue  # they want fewer people than are already in the group
                later = [c for c in candidates[index + 1 :] if _fits(candidate, c, self.blocked)]
                found = self.extend(
                    [*group, candidate], low, high, bots and candidate.bots_ready, later
                )
                if found is not None:
                    return found
                if self.budget < 0:
                    return None
        settled = group[0].settled and len(group) >= fewest
        return group if settled or bots else None


def _filled(
    first: _Seen, younger: list[_Seen], blocked: frozenset[tuple[int, int]]
) -> list[_Seen] | None:
    """The group the search would try first, if it is full (most passes end here, cheaply): the
    younger seekers taken in age order whenever they fit with everyone taken so far."""
    group, fewest, most = [first], first.fewest, first.most
    for candidate in younger:
        high = min(most, candidate.most)
        if len(group) >= high or max(fewest, candidate.fewest) > high:
            continue
        if all(_fits(member, candidate, blocked) for member in group):
            group.append(candidate)
            fewest, most = max(fewest, candidate.fewest), high
            if len(group) == most:
                return group
    return None


def pair(seekers: Sequence[Seeker], now: float, blocked: frozenset[tuple[int, int]]) -> list[Group]:
    """The groups that sit down now, oldest seeker first (see the module's docstring).

    `blocked` holds blocked_key pairs (blocked_set): a block either way keeps two apart.
    """
    groups: list[Group] = []
    pools: dict[tuple[str, str], list[Seeker]] = {}
    for seeker in sorted(seekers, key=lambda s: (s.since, s.person)):
        pools.setdefault((seeker.kind, seeker.pace), []).append(seeker)
    for (kind, pace), pool in pools.items():
        for people, bots in _pair_pool(pool, now, blocked):
            groups.append(Group(kind, pace, people, bots))
    return groups


def _pair_pool(
    pool: list[Seeker], now: float, blocked: frozenset[tuple[int, int]]
) -> list[tuple[tuple[int, ...], int]]:
    """The groups of one game and pace (its seekers oldest first), and the bots each needs."""
    seen = [_Seen(i, s, now) for i, s in enumerate(pool)]
    # The seekers by rating, so each finds the people inside its own window by bisection.
    by_rating = sorted(range(len(seen)), key=lambda i: (seen[i].rating, i))
    ratings = [seen[i].rating for i in by_rating]
    taken = [False] * len(seen)
    search = _Search(blocked)
    out: list[tuple[tuple[int, ...], int]] = []
    for index, first in enumerate(seen):
        if taken[index]:
            continue
        rating = first.rating
        low = bisect.bisect_left(ratings, rating - first.window)
        high = bisect.bisect_right(ratings, rating + first.window)
        younger = [seen[i] for i in sorted(by_rating[low:high]) if i > index and not taken[i]]
        found = _filled(first, younger, blocked)
        if found is None:
            found = search.group(first, [c for c in younger if _fits(first, c, blocked)])
        if found is None:
            continue
        for member in found:
            taken[member.index] = True
        fewest = max(m.fewest for m in found)
        out.append((tuple(m.person for m in found), max(0, fewest - len(found))))
    return out
